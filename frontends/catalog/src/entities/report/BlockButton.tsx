import { BanIcon, Button, cn, errorMessage, LazyConfirmDialog, notify, useSession } from '@cartable/ui';
import { useState } from 'react';
import { useBlockChange, useBlockStatus } from './api/reports';

/**
 * « Bloquer ce membre » / « Débloquer »: a blocked member can no longer write to you nor see your
 * phone and e-mail. Shown to signed-in members about someone else.
 */
export function BlockButton({ userId, name, compact = false }: { userId: string; name: string; compact?: boolean }) {
  const { user, isAuthenticated } = useSession();
  const mine = user?.id === userId;
  const status = useBlockStatus(userId, isAuthenticated && !mine);
  const [confirm, setConfirm] = useState(false);
  const change = useBlockChange(userId, {
    onSuccess: (message) => {
      setConfirm(false);
      void notify.success(message);
    },
    onError: (failure) => {
      setConfirm(false);
      void notify.error(errorMessage(failure, 'Erreur lors du blocage'));
    },
  });
  if (!isAuthenticated || mine || !status.data) return null;
  const blocked = status.data.blocked;
  const label = blocked ? 'Débloquer' : 'Bloquer ce membre';
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        // Compact (a conversation's header on a phone): an icon, so that the book's title keeps its room.
        className={cn(blocked ? 'text-slate-700' : 'text-red-700', compact && 'max-sm:h-11 max-sm:w-11 max-sm:px-0')}
        aria-label={compact ? label : undefined}
        loading={change.isPending && !confirm}
        onClick={() => (blocked ? change.mutate(false) : setConfirm(true))}
      >
        {compact ? (
          <>
            <BanIcon size={20} className="sm:hidden" aria-hidden="true" />
            <span className="max-sm:sr-only">{label}</span>
          </>
        ) : (
          label
        )}
      </Button>
      <LazyConfirmDialog
        open={confirm}
        title={`Bloquer ${name} ?`}
        description="Ce membre ne pourra plus vous écrire ni voir votre téléphone et votre email. Vous pourrez le débloquer depuis son profil."
        confirmLabel="Bloquer"
        loading={change.isPending}
        onConfirm={() => change.mutate(true)}
        onCancel={() => setConfirm(false)}
      />
    </>
  );
}
