import { randomUUID } from 'node:crypto';
import { convertImage, type ImageRules } from '@cartable/service-kit/images';

export const DISPLAY_WIDTH = 1200;
export const THUMBNAIL_WIDTH = 400;
export const BANNER_WIDTH = 1600;

/** What a listing's photo or a banner may be: by content, within 50 million pixels. */
export const photoRules: ImageRules = {
  formats: new Set(['jpeg', 'png', 'webp', 'heif', 'avif']),
  maxPixels: 50_000_000,
};

/**
 * Checks the bytes are a photo (by content, whatever the name), turns it upright, and makes
 * the two WebP sizes we serve; the re-encoding drops every piece of metadata (EXIF, GPS). Not a
 * photo, too many pixels or corrupt: ImageRejected with its French reason.
 */
export function processBookImage(input: Buffer) {
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

/** A banner's image, upright, at most 1600 px wide, in WebP. */
export function processBannerImage(input: Buffer) {
  return convertImage(input, photoRules, (image) =>
    image.rotate().resize({ width: BANNER_WIDTH, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
  );
}

/** Fresh keys for a photo (never reused, so browsers and proxies may cache them for ever). */
export const imageKeys = () => {
  const id = randomUUID();
  return { display: `books/${id}.webp`, thumbnail: `books/${id}-thumb.webp` };
};
