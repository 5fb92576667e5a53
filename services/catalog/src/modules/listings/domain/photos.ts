import { randomUUID } from 'node:crypto';
import type { Storage } from '@cartable/service-kit';
import { convertImage, photoRules } from '@cartable/service-kit/images';
import type { Sharp } from 'sharp';

export const DISPLAY_WIDTH = 1200;
export const THUMBNAIL_WIDTH = 400;
/**
 * The most a thumbnail weighs: what a card and, in data saver, a book page cost at most (0.04 FCFA
 * at 2,607 FCFA a gigabyte). A phone photo of a cover makes 7 to 21 KiB at quality 70 (docs:
 * frontends); a photo over it is encoded again at a lower quality, then smaller.
 */
export const THUMBNAIL_MAX_BYTES = 16 * 1024;
const THUMBNAIL_QUALITIES = [70, 55, 40, 25];
/** Past the lowest quality, the width shrinks by this much each time, down to the smallest. */
const THUMBNAIL_SHRINK = 0.75;
const THUMBNAIL_MIN_WIDTH = 100;

/** The thumbnail at the best quality, then the largest size, that fits THUMBNAIL_MAX_BYTES. */
async function thumbnailWithinBudget(image: Sharp): Promise<Buffer> {
  for (let width = THUMBNAIL_WIDTH; ; width = Math.max(THUMBNAIL_MIN_WIDTH, Math.round(width * THUMBNAIL_SHRINK))) {
    const resized = image
      .clone()
      .resize({ width, height: Math.round(width * 1.4), fit: 'inside', withoutEnlargement: true });
    const qualities = width === THUMBNAIL_WIDTH ? THUMBNAIL_QUALITIES : THUMBNAIL_QUALITIES.slice(-1);
    for (const quality of qualities) {
      const thumbnail = await resized.clone().webp({ quality }).toBuffer();
      // The smallest size is kept whatever it weighs: 100 × 140 pixels of noise make about 10 KiB.
      if (thumbnail.length <= THUMBNAIL_MAX_BYTES || width === THUMBNAIL_MIN_WIDTH) return thumbnail;
    }
  }
}

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
 * the two WebP sizes we serve, the thumbnail within its byte budget; the re-encoding drops every
 * piece of metadata (EXIF, GPS). Not a
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
      thumbnailWithinBudget(upright),
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
