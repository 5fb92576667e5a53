import type { Profile } from '@cartable/contracts';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  CardHeader,
  Checkbox,
  errorMessage,
  Input,
  notify,
  Textarea,
} from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { applyServerErrors } from '../../../shared/forms';
import { controlledLocation, LocationFields } from '../../../shared/LocationFields';
import { applyProfile, PROFILE_UPDATE_FALLBACK, updateProfile } from '../api/profile';
import { accountChecks } from './checks';

export const PROFILE_UPDATED = 'Votre profil a été mis à jour.';
const BIO_MAX = 500;

interface ProfileValues {
  name: string;
  username: string;
  phone: string;
  bio: string;
  show_email: boolean;
  show_phone: boolean;
  country_id: number | null;
  city_id: number | null;
}

const FIELDS = ['name', 'username', 'phone', 'bio', 'show_email', 'show_phone', 'country_id', 'city_id'] as const;

const resolver = accountChecks.resolver((checks) => checks.profile);

function toValues(profile: Profile): ProfileValues {
  return {
    name: profile.name,
    username: profile.username,
    phone: profile.phone ?? '',
    bio: profile.bio ?? '',
    show_email: profile.show_email,
    show_phone: profile.show_phone,
    country_id: profile.country_id,
    city_id: profile.city_id,
  };
}

/** PUT /user/profile: name, username, phone, bio, visibility of e-mail and phone, country and city. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileValues>({
    defaultValues: toValues(profile),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: resolver as never,
  });
  const country = useController({ control, name: 'country_id' });
  const city = useController({ control, name: 'city_id' });
  const bio = watch('bio') ?? '';

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      const answer = await updateProfile(values);
      applyProfile(queryClient, answer?.profile);
      if (answer?.profile) reset(toValues(answer.profile));
      notify.success(answer?.message ?? PROFILE_UPDATED);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) {
        const applied = applyServerErrors(error, setError, FIELDS);
        if (applied.length > 0) return;
        if (error.status === 409) {
          setError('username', { type: 'server', message: error.message }, { shouldFocus: true });
          return;
        }
      }
      setServerError(errorMessage(error, PROFILE_UPDATE_FALLBACK));
    }
  });

  return (
    <Card id="informations" className="scroll-mt-20">
      <CardHeader>
        <h2 className="text-lg font-semibold text-slate-900">Informations personnelles</h2>
        <p className="text-sm text-slate-600">Ce que les autres membres voient de vous sur Cartable.</p>
      </CardHeader>
      <CardBody>
        <form
          {...accountChecks.loadOnTouch}
          noValidate
          onSubmit={onSubmit}
          className="space-y-4"
          aria-label="Informations personnelles"
        >
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <Input label="Nom complet" autoComplete="name" error={errors.name?.message} {...register('name')} />
            <Input
              label="Pseudonyme"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              error={errors.username?.message}
              {...register('username')}
            />
          </div>
          <Input
            label="Adresse email"
            type="email"
            value={profile.email}
            readOnly
            disabled
            hint="L'adresse email ne peut pas être modifiée ici."
          />
          <Input
            label="Téléphone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+241 77 12 34 56"
            error={errors.phone?.message}
            {...register('phone')}
          />
          <Textarea
            label="Présentation"
            rows={4}
            maxLength={BIO_MAX}
            placeholder="Parlez un peu de vous : classe, établissement, manuels recherchés…"
            hint={`${BIO_MAX - bio.length} caractères restants`}
            error={errors.bio?.message}
            {...register('bio')}
          />
          <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">Coordonnées visibles</legend>
            <Checkbox
              label="Afficher mon adresse email sur mon profil public"
              hint="Les acheteurs la voient sur vos annonces, derrière un bouton."
              {...register('show_email')}
            />
            <Checkbox
              label="Afficher mon numéro de téléphone sur mon profil public"
              hint="Pratique pour discuter par WhatsApp."
              {...register('show_phone')}
            />
          </fieldset>
          <LocationFields {...controlledLocation(country, city)} />
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => reset(toValues(profile))}>
              Annuler les modifications
            </Button>
            <Button type="submit" loading={isSubmitting}>
              Enregistrer
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
