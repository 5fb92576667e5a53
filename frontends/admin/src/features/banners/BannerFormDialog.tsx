import { Button, Checkbox, errorMessage, ImageIcon, Input, notify, Select } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type Banner, refreshBanners, saveBanner } from './api/banners';

interface BannerForm {
  title: string;
  subtitle: string;
  button_text: string;
  button_link: string;
  color: 'light' | 'dark';
  is_active: boolean;
  order: number;
}

const FIELDS = ['title', 'subtitle', 'button_text', 'button_link', 'color', 'is_active', 'order'] as const;

/** The contract's rule (bannerLinkKind): a page of the site (/…) or another site over https. */
function linkError(value: string): string | true {
  const link = value.trim();
  if (!link) return true;
  if (link.startsWith('//') || link.startsWith('/\\'))
    return 'Un lien commençant par // mène vers un autre site : écrivez https://… pour un lien externe, ou /… pour une page du site.';
  if (/^\/[^\s\\]*$/.test(link)) return true;
  if (/^https:\/\/[^/\\\s]+/i.test(link) && !/[\s\\]/.test(link)) return true;
  return 'Lien interne (/books…) ou https:// attendu';
}

/** Create (banner null) or edit a banner: image with a preview, texts, link, style, active, order. */
export function BannerFormDialog({
  open,
  banner,
  nextOrder,
  onClose,
}: {
  open: boolean;
  banner: Banner | null;
  nextOrder: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const { register, handleSubmit, reset, setError, formState, watch } = useForm<BannerForm>();

  useEffect(() => {
    if (!open) return;
    setImage(null);
    setImageError(undefined);
    reset({
      title: banner?.title ?? '',
      subtitle: banner?.subtitle ?? '',
      button_text: banner?.button_text ?? '',
      button_link: banner?.button_link ?? '',
      color: banner?.color ?? 'dark',
      is_active: banner?.is_active ?? true,
      order: banner?.order ?? nextOrder,
    });
  }, [open, banner, nextOrder, reset]);

  useEffect(() => {
    if (!image) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const submit = handleSubmit(async (values) => {
    if (!banner && !image) {
      setImageError('Choisissez une image pour la bannière.');
      return;
    }
    const form = new FormData();
    form.append('title', values.title.trim());
    form.append('subtitle', values.subtitle.trim());
    form.append('button_text', values.button_text.trim());
    form.append('button_link', values.button_link.trim());
    form.append('color', values.color);
    form.append('is_active', values.is_active ? 'true' : 'false');
    form.append('order', String(values.order));
    if (image) form.append('image', image);
    setSaving(true);
    try {
      await saveBanner(banner?.id ?? null, form);
      refreshBanners(queryClient);
      void notify.success(banner ? 'Bannière modifiée avec succès' : 'Bannière créée avec succès');
      onClose();
    } catch (error) {
      const errors = (error as { errors?: Record<string, string[]> }).errors ?? {};
      let shown = false;
      for (const field of FIELDS) {
        const message = errors[field]?.[0];
        if (message) {
          setError(field, { message });
          shown = true;
        }
      }
      if (errors.image?.[0]) {
        setImageError(errors.image[0]);
        shown = true;
      }
      if (!shown) void notify.error(errorMessage(error, 'La bannière n’a pas pu être enregistrée.'));
    } finally {
      setSaving(false);
    }
  });

  const shownImage = preview ?? banner?.image_url ?? null;
  const dark = watch('color') !== 'light';

  return (
    <Dialog
      open={open}
      onClose={saving ? () => {} : onClose}
      title={banner ? 'Modifier la bannière' : 'Nouvelle bannière'}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Annuler
          </Button>
          <Button type="submit" form={`${id}-form`} loading={saving}>
            {banner ? 'Enregistrer' : 'Créer la bannière'}
          </Button>
        </>
      }
    >
      <form id={`${id}-form`} className="space-y-4" onSubmit={submit} noValidate>
        <div>
          <label htmlFor={`${id}-image`} className="mb-1 block text-sm font-medium text-slate-800">
            Image {banner ? '(laisser vide pour garder l’actuelle)' : ''}
          </label>
          <div
            className={`relative mb-2 flex aspect-[3/1] w-full items-center justify-center overflow-hidden rounded-lg border border-slate-200 ${dark ? 'bg-slate-800' : 'bg-slate-100'}`}
          >
            {shownImage ? (
              <img src={shownImage} alt="Aperçu de la bannière" className="h-full w-full object-cover" />
            ) : (
              <ImageIcon size={32} className="text-slate-400" />
            )}
          </div>
          <input
            id={`${id}-image`}
            type="file"
            name="image"
            accept="image/jpeg,image/png,image/webp"
            aria-invalid={imageError ? true : undefined}
            className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
            onChange={(event) => {
              setImage(event.target.files?.[0] ?? null);
              setImageError(undefined);
            }}
          />
          {imageError ? (
            <p className="mt-1 text-sm text-red-700" role="alert">
              {imageError}
            </p>
          ) : (
            <p className="mt-1 text-xs text-slate-500">JPEG, PNG ou WebP ; 1600 px de large conviennent.</p>
          )}
        </div>
        <Input
          label="Titre"
          error={formState.errors.title?.message}
          {...register('title', {
            validate: (v) =>
              v.trim().length < 2
                ? 'Le titre doit contenir au moins 2 caractères'
                : v.trim().length > 120
                  ? 'Le titre ne peut pas dépasser 120 caractères'
                  : true,
          })}
        />
        <Input
          label="Sous-titre (facultatif)"
          error={formState.errors.subtitle?.message}
          {...register('subtitle', { maxLength: { value: 240, message: '240 caractères au plus' } })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Texte du bouton (facultatif)"
            error={formState.errors.button_text?.message}
            {...register('button_text', { maxLength: { value: 40, message: '40 caractères au plus' } })}
          />
          <Input
            label="Lien du bouton (facultatif)"
            placeholder="/books?… ou https://…"
            error={formState.errors.button_link?.message}
            {...register('button_link', { validate: linkError })}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Select label="Style" error={formState.errors.color?.message} {...register('color')}>
            <option value="dark">Sombre (texte clair)</option>
            <option value="light">Clair (texte sombre)</option>
          </Select>
          <Input
            label="Ordre"
            type="number"
            min={0}
            error={formState.errors.order?.message}
            {...register('order', {
              valueAsNumber: true,
              validate: (v) => (Number.isInteger(v) && v >= 0 ? true : 'Un nombre entier positif'),
            })}
          />
        </div>
        <Checkbox label="Active (visible dans le carrousel de l’accueil)" {...register('is_active')} />
      </form>
    </Dialog>
  );
}
