import { bookFieldsSchema, MAX_BOOK_IMAGES } from '@cartable/contracts';
import { type FieldErrors, fieldErrorsFromZod, unprocessable } from '@cartable/service-kit';
import { ImageRejected } from '@cartable/service-kit/images';
import type { FastifyRequest } from 'fastify';
import type { ListingForm } from '../domain/listing-writes.ts';
import { type ProcessedPhoto, processBookImage } from '../domain/photos.ts';

/**
 * Reads a listing's multipart form: text fields checked with the same zod schema as the form,
 * up to three photos checked by content and re-encoded. Every problem is a 422 naming the field.
 */
export async function readListingForm(request: FastifyRequest, maxImageBytes: number): Promise<ListingForm> {
  const invalid = (errors: FieldErrors) => unprocessable(errors);
  if (!request.isMultipart()) throw invalid({ _: ['Envoyez le formulaire en multipart/form-data.'] });
  const raw: Record<string, unknown> = {};
  const photos = new Map<number, ProcessedPhoto>();
  const remove = new Set<number>();
  const errors: FieldErrors = {};
  const maxMb = Math.round(maxImageBytes / 1024 / 1024);

  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const slot = /^image([1-9])$/.exec(part.fieldname)?.[1];
      if (!slot || Number(slot) > MAX_BOOK_IMAGES) {
        await part.toBuffer().catch(() => null);
        errors.images = [`${MAX_BOOK_IMAGES} photos au plus (champs image1 à image${MAX_BOOK_IMAGES}).`];
        continue;
      }
      const bytes = await part.toBuffer().catch(() => null);
      if (!bytes || part.file.truncated) {
        errors[part.fieldname] = [`La photo ne doit pas dépasser ${maxMb} Mo.`];
        continue;
      }
      if (bytes.length === 0) continue;
      try {
        photos.set(Number(slot), await processBookImage(bytes));
      } catch (err) {
        if (!(err instanceof ImageRejected)) throw err;
        errors[part.fieldname] = [
          err.problem === 'format' ? "Ce fichier n'est pas une photo valide (JPEG, PNG ou WebP)." : err.message,
        ];
      }
      continue;
    }
    const removeSlot = /^remove_image([1-3])$/.exec(part.fieldname)?.[1];
    if (removeSlot) {
      if (part.value === 'true' || part.value === '1') remove.add(Number(removeSlot));
      continue;
    }
    // Repeated fields (category_ids[]=1&category_ids[]=2) become lists; a part without a name is no field.
    const name = (part.fieldname ?? '').replace(/\[\]$/, '');
    if (!name) continue;
    const previous = raw[name];
    raw[name] = previous === undefined ? part.value : [previous, part.value].flat();
  }
  if (raw.is_negotiable !== undefined && raw.is_negociable === undefined) raw.is_negociable = raw.is_negotiable;
  const parsed = bookFieldsSchema.safeParse(raw);
  if (!parsed.success) Object.assign(errors, fieldErrorsFromZod(parsed.error.issues));
  if (Object.keys(errors).length || !parsed.success) throw invalid(errors);
  return { fields: parsed.data, photos, remove };
}
