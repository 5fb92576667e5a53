import { Button, Checkbox, errorMessage, Input, notify, Select, useCountries } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CsvImportDialog, type CsvRowNames } from '../../shared/CsvImportDialog';
import {
  type AdminCity,
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

const cityNames: CsvRowNames = {
  count: (n) => `${n} ville${n > 1 ? 's' : ''}`,
  imported: (n) => `importée${n > 1 ? 's' : ''}`,
};

/** The CSV import of cities (CsvImportDialog), into the country chosen beside the file. */
export function CityImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [countryId, setCountryId] = useState(DEFAULT_COUNTRY_ID);
  useEffect(() => {
    if (open) setCountryId(DEFAULT_COUNTRY_ID);
  }, [open]);

  return (
    <CsvImportDialog
      open={open}
      onClose={onClose}
      title="Importer des villes (CSV)"
      description="Colonnes : name, province, is_major (oui/non) ; séparateur , ou ; ; encodage UTF-8. La première ligne peut être un en-tête."
      names={cityNames}
      send={(file, dryRun) => importCities(file, countryId, dryRun)}
      onImported={(report) => {
        refreshCities(queryClient);
        void notify.success(
          report.imported > 1 ? `${report.imported} villes importées avec succès` : `${report.imported} ville importée`,
        );
      }}
      fieldErrorKeys={['csv_file', 'country_id']}
      fields={(clearReport) => (
        <Select
          label="Pays"
          value={countryId}
          onChange={(event) => {
            setCountryId(Number(event.target.value));
            clearReport();
          }}
        >
          {(countries.data ?? [{ id: DEFAULT_COUNTRY_ID, nom_fr_fr: 'Gabon', alpha2: 'GA' }]).map((country) => (
            <option key={country.id} value={country.id}>
              {country.nom_fr_fr}
            </option>
          ))}
        </Select>
      )}
      renderRow={(row) => (
        <>
          {row.name}
          {row.province ? <span className="text-slate-500"> · {row.province}</span> : null}
          {row.is_major ? <span className="text-slate-500"> · principale</span> : null}
        </>
      )}
    />
  );
}
