import type { Profile } from '@cartable/contracts';
import {
  Button,
  CalendarIcon,
  CameraIcon,
  Card,
  CardBody,
  errorMessage,
  formatDate,
  initials,
  notify,
  profileImageUrl,
  TrashIcon,
} from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { applyProfile, deleteProfileImage, uploadProfileImage } from '../api/profile';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPE_ERROR = 'Choisissez une image JPEG, PNG ou WebP.';
export const IMAGE_SIZE_ERROR = "L'image ne doit pas dépasser 5 Mo.";
export const IMAGE_UPLOAD_FALLBACK = "Erreur lors de l'envoi de la photo de profil";
export const IMAGE_DELETE_FALLBACK = 'Erreur lors de la suppression de la photo de profil';

/** Profile picture (upload with preview, removal), name, username and membership date. */
export function AvatarCard({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'upload' | 'delete' | null>(null);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    setError(null);
    if (!picked) return;
    if (!IMAGE_TYPES.includes(picked.type)) return setError(IMAGE_TYPE_ERROR);
    if (picked.size > IMAGE_MAX_BYTES) return setError(IMAGE_SIZE_ERROR);
    setFile(picked);
  }

  async function upload() {
    if (!file) return;
    setBusy('upload');
    try {
      const answer = await uploadProfileImage(file);
      applyProfile(queryClient, answer?.profile);
      setFile(null);
      notify.success(answer?.message ?? 'Votre photo de profil a été mise à jour.');
    } catch (failure) {
      setError(errorMessage(failure, IMAGE_UPLOAD_FALLBACK));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setBusy('delete');
    setError(null);
    try {
      const answer = await deleteProfileImage();
      applyProfile(queryClient, answer?.profile);
      notify.success(answer?.message ?? 'Votre photo de profil a été supprimée.');
    } catch (failure) {
      setError(errorMessage(failure, IMAGE_DELETE_FALLBACK));
    } finally {
      setBusy(null);
    }
  }

  const current = profileImageUrl(profile.profile_image);
  const shown = preview ?? current;

  return (
    <Card>
      <CardBody className="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-center sm:text-left">
        <div className="relative shrink-0">
          <span className="flex h-28 w-28 items-center justify-center overflow-hidden rounded-full bg-primary-100 text-3xl font-bold text-primary-800 ring-4 ring-white shadow">
            {shown ? (
              <img
                src={shown}
                alt={preview ? 'Aperçu de la nouvelle photo' : 'Votre photo de profil'}
                className="h-full w-full object-cover"
              />
            ) : (
              initials(profile.name, '?')
            )}
          </span>
          <label
            htmlFor={inputId}
            className="absolute right-0 bottom-0 flex h-10 w-10 cursor-pointer items-center justify-center rounded-full bg-primary-700 text-white shadow ring-2 ring-white hover:bg-primary-800"
          >
            <CameraIcon size={18} />
            <span className="sr-only">Choisir une photo de profil</span>
            <input
              ref={inputRef}
              id={inputId}
              type="file"
              // The "Changer la photo" button is the keyboard way in; this badge is a shortcut.
              tabIndex={-1}
              accept={IMAGE_TYPES.join(',')}
              className="sr-only"
              onChange={onPick}
            />
          </label>
        </div>
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h1 className="text-2xl font-bold break-words text-slate-900">{profile.name}</h1>
            <p className="text-sm text-slate-600">@{profile.username}</p>
            <p className="mt-1 flex items-center justify-center gap-1 text-xs text-slate-500 sm:justify-start">
              <CalendarIcon size={14} />
              Membre depuis le {formatDate(profile.created_at)}
            </p>
          </div>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          {file ? (
            <div className="flex flex-wrap justify-center gap-2 sm:justify-start">
              <Button size="sm" loading={busy === 'upload'} onClick={upload}>
                Enregistrer la photo
              </Button>
              <Button size="sm" variant="ghost" disabled={busy !== null} onClick={() => setFile(null)}>
                Annuler
              </Button>
            </div>
          ) : (
            <div className="flex flex-wrap justify-center gap-2 sm:justify-start">
              <Button
                size="sm"
                variant="outline"
                leftIcon={<CameraIcon size={16} />}
                onClick={() => inputRef.current?.click()}
              >
                {current ? 'Changer la photo' : 'Ajouter une photo'}
              </Button>
              {current ? (
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-red-700 hover:bg-red-50"
                  leftIcon={<TrashIcon size={16} />}
                  loading={busy === 'delete'}
                  onClick={remove}
                >
                  Supprimer la photo
                </Button>
              ) : null}
            </div>
          )}
          <p className="text-xs text-slate-500">JPEG, PNG ou WebP, 5 Mo au plus.</p>
        </div>
      </CardBody>
    </Card>
  );
}
