import { Alert, Button, Checkbox, errorMessage, Input, notify, Select, useCountries } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  type AdminCity,
  type CityImportReport,
  DEFAULT_COUNTRY_ID,
  importCities,
  refreshCities,
  useProvinces,
  useSaveCity,
} from './api/cities';

interface CityForm {
  name: string;
  province: string;
  is_major: boolean;
}

/** Create (city null) or edit a city; the server's field errors (a duplicate name) show under the field. */
export function CityFormDialog({
  open,
  city,
  onClose,
}: {
  open: boolean;
  city: AdminCity | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const provinces = useProvinces();
  const listId = useId();
  const form = useForm<CityForm>({ defaultValues: { name: '', province: '', is_major: false } });
  const { register, handleSubmit, reset, setError, formState } = form;
  useEffect(() => {
    if (open) reset({ name: city?.name ?? '', province: city?.province ?? '', is_major: city?.is_major ?? false });
  }, [open, city, reset]);

  const save = useSaveCity(queryClient, {
    onSuccess: (answer) => {
      void notify.success(
        city ? `Ville ${answer.city.name} modifiée avec succès` : `Ville ${answer.city.name} créée avec succès`,
      );
      onClose();
    },
    onError: (error) => {
      const errors = (error as { errors?: Record<string, string[]> }).errors ?? {};
      let shown = false;
      for (const field of ['name', 'province', 'is_major'] as const) {
        const message = errors[field]?.[0];
        if (message) {
          setError(field, { message });
          shown = true;
        }
      }
      if (!shown) void notify.error(errorMessage(error, 'La ville n’a pas pu être enregistrée.'));
    },
  });

  const submit = handleSubmit((values) =>
    save.mutate({
      id: city?.id ?? null,
      body: {
        name: values.name.trim(),
        province: values.province.trim() || null,
        is_major: values.is_major,
        country_id: city?.country_id ?? DEFAULT_COUNTRY_ID,
      },
    }),
  );

  return (
    <Dialog
      open={open}
      onClose={save.isPending ? () => {} : onClose}
      title={city ? `Modifier ${city.name}` : 'Nouvelle ville'}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={`${listId}-form`} loading={save.isPending}>
            {city ? 'Enregistrer' : 'Créer la ville'}
          </Button>
        </>
      }
    >
      <form id={`${listId}-form`} className="space-y-4" onSubmit={submit} noValidate>
        <Input
          label="Nom"
          autoComplete="off"
          error={formState.errors.name?.message}
          {...register('name', {
            validate: (v) =>
              v.trim().length < 2
                ? 'Le nom doit contenir au moins 2 caractères'
                : v.trim().length > 80
                  ? 'Le nom ne peut pas dépasser 80 caractères'
                  : true,
          })}
        />
        <Input
          label="Province"
          list={`${listId}-provinces`}
          autoComplete="off"
          hint="Choisissez une province existante ou saisissez-en une nouvelle."
          error={formState.errors.province?.message}
          {...register('province', {
            validate: (v) => (v.trim().length > 80 ? 'La province ne peut pas dépasser 80 caractères' : true),
          })}
        />
        <datalist id={`${listId}-provinces`}>
          {(provinces.data ?? []).map((p) => (
            <option key={p.id} value={p.name} />
          ))}
        </datalist>
        <Checkbox label="Ville principale" hint="Proposée en premier dans les listes." {...register('is_major')} />
      </form>
    </Dialog>
  );
}

/**
 * The CSV import: pick a file and a country, see what would be imported and what would be
 * rejected (with the reasons), then import for real and see the result.
 */
export function CityImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const countries = useCountries();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [countryId, setCountryId] = useState(DEFAULT_COUNTRY_ID);
  const [report, setReport] = useState<CityImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setReport(null);
    setError(undefined);
    setCountryId(DEFAULT_COUNTRY_ID);
  }, [open]);

  const run = async (dryRun: boolean) => {
    if (!file) {
      setError('Choisissez un fichier CSV.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = await importCities(file, countryId, dryRun);
      setReport(answer);
      if (!dryRun) {
        refreshCities(queryClient);
        void notify.success(
          answer.imported > 1 ? `${answer.imported} villes importées avec succès` : `${answer.imported} ville importée`,
        );
      }
    } catch (err) {
      const fieldErrors = (err as { errors?: Record<string, string[]> }).errors ?? {};
      setError(fieldErrors.csv_file?.[0] ?? fieldErrors.country_id?.[0] ?? errorMessage(err, 'Import impossible.'));
    } finally {
      setBusy(false);
    }
  };

  const done = report && !report.dry_run;
  return (
    <Dialog
      open={open}
      onClose={busy ? () => {} : onClose}
      title="Importer des villes (CSV)"
      description="Colonnes : name, province, is_major (oui/non) ; séparateur , ou ; ; encodage UTF-8. La première ligne peut être un en-tête."
      size="lg"
      footer={
        done ? (
          <Button onClick={onClose}>Fermer</Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose} disabled={busy}>
              Annuler
            </Button>
            {report?.dry_run ? (
              <Button onClick={() => void run(false)} loading={busy} disabled={report.to_import.length === 0}>
                Importer {report.to_import.length} ville{report.to_import.length > 1 ? 's' : ''}
              </Button>
            ) : (
              <Button onClick={() => void run(true)} loading={busy}>
                Prévisualiser
              </Button>
            )}
          </>
        )
      }
    >
      <div className="space-y-4">
        {!done ? (
          <>
            <div>
              <label htmlFor={fileId} className="mb-1 block text-sm font-medium text-slate-800">
                Fichier CSV
              </label>
              <input
                id={fileId}
                type="file"
                accept=".csv,text/csv"
                className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setReport(null);
                }}
              />
            </div>
            <Select
              label="Pays"
              value={countryId}
              onChange={(event) => {
                setCountryId(Number(event.target.value));
                setReport(null);
              }}
            >
              {(countries.data ?? [{ id: DEFAULT_COUNTRY_ID, nom_fr_fr: 'Gabon', alpha2: 'GA' }]).map((country) => (
                <option key={country.id} value={country.id}>
                  {country.nom_fr_fr}
                </option>
              ))}
            </Select>
          </>
        ) : null}
        {error ? (
          <Alert tone="error" title="Import impossible">
            {error}
          </Alert>
        ) : null}
        {report ? <ImportReport report={report} /> : null}
      </div>
    </Dialog>
  );
}

function ImportReport({ report }: { report: CityImportReport }) {
  const count = report.dry_run ? report.to_import.length : report.imported;
  return (
    <div className="space-y-3" data-testid="import-report">
      <Alert tone={count ? 'success' : 'warning'} title={report.dry_run ? 'Prévisualisation' : 'Import terminé'}>
        {report.dry_run
          ? `${count} ville${count > 1 ? 's' : ''} à importer, ${report.rejected.length} ligne${report.rejected.length > 1 ? 's' : ''} rejetée${report.rejected.length > 1 ? 's' : ''}. Rien n’est encore enregistré.`
          : `${count} ville${count > 1 ? 's' : ''} importée${count > 1 ? 's' : ''}, ${report.rejected.length} ligne${report.rejected.length > 1 ? 's' : ''} rejetée${report.rejected.length > 1 ? 's' : ''}.`}
      </Alert>
      {report.to_import.length ? (
        <div>
          <h3 className="mb-1 text-sm font-semibold text-slate-800">
            {report.dry_run ? 'Lignes à importer' : 'Lignes importées'}
          </h3>
          <ul className="max-h-40 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 text-sm">
            {report.to_import.map((row) => (
              <li key={row.line} className="flex gap-3 px-3 py-1.5" data-testid="import-line">
                <span className="w-14 shrink-0 text-slate-500">L. {row.line}</span>
                <span className="min-w-0 flex-1">
                  {row.name}
                  {row.province ? <span className="text-slate-500"> · {row.province}</span> : null}
                  {row.is_major ? <span className="text-slate-500"> · principale</span> : null}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.rejected.length ? (
        <div>
          <h3 className="mb-1 text-sm font-semibold text-red-800">Lignes rejetées</h3>
          <ul className="max-h-48 divide-y divide-red-100 overflow-y-auto rounded-lg border border-red-200 text-sm">
            {report.rejected.map((row) => (
              <li key={`${row.line}-${row.reason}`} className="px-3 py-1.5" data-testid="import-rejected">
                <span className="flex gap-3">
                  <span className="w-14 shrink-0 text-slate-500">L. {row.line}</span>
                  <code className="min-w-0 flex-1 break-all text-slate-700">{row.content || '(vide)'}</code>
                </span>
                <ul className="ml-[4.25rem] list-disc pl-4 text-red-800">
                  {row.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
