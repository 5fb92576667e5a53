import { randomUUID } from 'node:crypto';
import sharp from 'sharp';

export const DISPLAY_WIDTH = 1200;
export const THUMBNAIL_WIDTH = 400;
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'heif', 'avif']);

export class ImageRejected extends Error {}

/**
 * Checks the bytes are a photo (by content, whatever the name), turns it upright, and makes
 * the two WebP sizes we serve; the re-encoding drops every piece of metadata (EXIF, GPS).
 */
export async function processBookImage(input: Buffer) {
  let format: string | undefined;
  try {
    format = (await sharp(input).metadata()).format;
  } catch {
    throw new ImageRejected('not an image');
  }
  if (!format || !ACCEPTED.has(format)) throw new ImageRejected(`format ${format}`);
  const upright = sharp(input, { limitInputPixels: 50_000_000 }).rotate();
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
}

/** Fresh keys for a photo (never reused, so browsers and proxies may cache them for ever). */
export const imageKeys = () => {
  const id = randomUUID();
  return { display: `books/${id}.webp`, thumbnail: `books/${id}-thumb.webp` };
};
