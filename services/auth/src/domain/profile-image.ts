import sharp from 'sharp';

export const PROFILE_IMAGE_SIZE = 256;

/** Formats sharp recognises by content (not by file name) that we accept from a phone. */
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'gif']);

export class ImageRejected extends Error {}

/**
 * Reads the bytes as an image whatever the file is called, rotates it upright, crops a square,
 * re-encodes it as WebP and drops every piece of metadata (EXIF GPS included).
 */
export async function processProfileImage(input: Buffer): Promise<Buffer> {
  let format: string | undefined;
  try {
    format = (await sharp(input).metadata()).format;
  } catch {
    throw new ImageRejected('not an image');
  }
  if (!format || !ACCEPTED.has(format)) throw new ImageRejected(`format ${format}`);
  return sharp(input, { limitInputPixels: 40_000_000 })
    .rotate()
    .resize(PROFILE_IMAGE_SIZE, PROFILE_IMAGE_SIZE, { fit: 'cover', position: 'attention' })
    .webp({ quality: 80 })
    .toBuffer();
}
