import { classListCsvColumns } from '@cartable/contracts';
import { notify } from '@cartable/ui';
import { CsvImportDialog, type CsvRowNames } from '../../../shared/CsvImportDialog';
import { type ClassList, importItems, useRefreshClassLists } from '../api/class-lists';

const bookNames: CsvRowNames = {
  count: (n) => `${n} manuel${n > 1 ? 's' : ''}`,
  imported: (n) => `importé${n > 1 ? 's' : ''}`,
};

/** The CSV import of a list's books (CsvImportDialog); a subject is read by its name among the level's. */
export function ImportItemsDialog({ open, list, onClose }: { open: boolean; list: ClassList; onClose: () => void }) {
  const refresh = useRefreshClassLists();
  return (
    <CsvImportDialog
      open={open}
      onClose={onClose}
      title={`Importer des manuels (${list.level.name} ${list.school_year})`}
      description={`Colonnes : ${classListCsvColumns.join(' ; ')} (required : oui/non) ; séparateur ; ou , ; UTF-8. La première ligne peut être un en-tête. La matière se lit par son nom.`}
      names={bookNames}
      send={(file, dryRun) => importItems(list.id, file, dryRun)}
      onImported={(report) => {
        refresh();
        void notify.success(`${bookNames.count(report.imported)} ${bookNames.imported(report.imported)}`);
      }}
      renderRow={(row) => (
        <>
          {row.title}
          <span className="text-slate-500">
            {[row.author, row.publisher, row.year, row.isbn, row.subject?.name]
              .filter(Boolean)
              .map((v) => ` · ${v}`)
              .join('')}
            {row.requirement === 'recommended' ? ' · conseillé' : ''}
          </span>
        </>
      )}
    />
  );
}
