import { convertImage } from '@cartable/service-kit/images';

export const PROFILE_IMAGE_SIZE = 256;

/** Formats sharp recognises by content (not by file name) that we accept from a phone. */
const FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'gif']);
export const PROFILE_IMAGE_MAX_PIXELS = 40_000_000;

/**
 * Reads the bytes as an image whatever the file is called, rotates it upright, crops a square,
 * re-encodes it as WebP and drops every piece of metadata (EXIF GPS included). An upload that
 * is not one (or too many pixels, or corrupt) throws ImageRejected with its French reason.
 */
export function processProfileImage(input: Buffer): Promise<Buffer> {
  return convertImage(input, { formats: FORMATS, maxPixels: PROFILE_IMAGE_MAX_PIXELS }, (image) =>
    image
      .rotate()
      .resize(PROFILE_IMAGE_SIZE, PROFILE_IMAGE_SIZE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 80 })
      .toBuffer(),
  );
}
