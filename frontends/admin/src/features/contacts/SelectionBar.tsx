import { Button, TrashIcon } from '@cartable/ui';

/** How many messages are selected, with « Désélectionner » and « Supprimer la sélection ». */
export function SelectionBar({
  count,
  onClear,
  onDelete,
}: {
  count: number;
  onClear: () => void;
  onDelete: () => void;
}) {
  return count === 0 ? null : (
    <div
      className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-2"
      role="status"
    >
      <span className="text-sm font-medium text-red-900">
        {count} message{count > 1 ? 's' : ''} sélectionné{count > 1 ? 's' : ''}
      </span>
      <div className="flex flex-wrap gap-2">
        <Button variant="ghost" size="sm" onClick={onClear}>
          Désélectionner
        </Button>
        <Button variant="danger" size="sm" leftIcon={<TrashIcon size={16} />} onClick={onDelete}>
          Supprimer la sélection
        </Button>
      </div>
    </div>
  );
}
