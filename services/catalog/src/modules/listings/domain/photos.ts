import { randomUUID } from 'node:crypto';
import type { Storage } from '@cartable/service-kit';
import { convertImage, photoRules } from '@cartable/service-kit/images';

export const DISPLAY_WIDTH = 1200;
export const THUMBNAIL_WIDTH = 400;

/** A photo re-encoded in the two sizes we serve. */
export interface ProcessedPhoto {
  display: Buffer;
  thumbnail: Buffer;
}
/** Where a photo is stored. */
export interface PhotoKeys {
  displayKey: string;
  thumbnailKey: string;
}

/**
 * Checks the bytes are a photo (by content, whatever the name), turns it upright, and makes
 * the two WebP sizes we serve; the re-encoding drops every piece of metadata (EXIF, GPS). Not a
 * photo, too many pixels or corrupt: ImageRejected with its French reason.
 */
export function processBookImage(input: Buffer): Promise<ProcessedPhoto> {
  return convertImage(input, photoRules, async (image) => {
    const upright = image.rotate();
    const [display, thumbnail] = await Promise.all([
      upright
        .clone()
        .resize({ width: DISPLAY_WIDTH, height: DISPLAY_WIDTH, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer(),
      upright
        .clone()
        .resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH * 1.4, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer(),
    ]);
    return { display, thumbnail };
  });
}

/** Fresh keys for a photo (never reused, so browsers and proxies may cache them for ever). */
export const imageKeys = () => {
  const id = randomUUID();
  return { display: `books/${id}.webp`, thumbnail: `books/${id}-thumb.webp` };
};

/** Writes the photos to storage before the transaction that records them; returns their keys by slot. */
export async function storePhotos(storage: Storage, photos: Map<number, ProcessedPhoto>) {
  const stored = new Map<number, PhotoKeys>();
  for (const [slot, photo] of photos) {
    const keys = imageKeys();
    await storage.put(keys.display, photo.display, 'image/webp');
    await storage.put(keys.thumbnail, photo.thumbnail, 'image/webp');
    stored.set(slot, { displayKey: keys.display, thumbnailKey: keys.thumbnail });
  }
  return stored;
}

/** Removes stored photos (a failed write's, or those a change replaced); a failure costs only disk. */
export async function deleteStoredPhotos(storage: Storage, keys: PhotoKeys[]) {
  await Promise.all(keys.flatMap((k) => [storage.delete(k.displayKey), storage.delete(k.thumbnailKey)])).catch(
    () => {},
  );
}
