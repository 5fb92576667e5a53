import { messages } from '@cartable/contracts';
import sharp, { type Sharp } from 'sharp';

/** Why an upload is not an image we take: another format, too many pixels, or unreadable bytes. */
export type ImageProblem = 'format' | 'pixels' | 'unreadable';

/** An upload refused, with its French reason: the routes answer 422 naming their field. */
export class ImageRejected extends Error {
  constructor(
    readonly problem: ImageProblem,
    message: string,
  ) {
    super(message);
    this.name = 'ImageRejected';
  }
}

export interface ImageRules {
  /** Formats sharp recognises by content (`jpeg`, `png`, `webp`…), whatever the file is called. */
  formats: ReadonlySet<string>;
  /** Largest width × height decoded: a decompression bomb declares a huge size in a few bytes. */
  maxPixels: number;
}

/** What a photo may be (a listing's, a banner's): the usual photo formats by content, within 50 million pixels. */
export const photoRules: ImageRules = {
  formats: new Set(['jpeg', 'png', 'webp', 'heif', 'avif']),
  maxPixels: 50_000_000,
};

/**
 * Runs `convert` (resize, re-encode…) on an uploaded image once its bytes are known to be one of
 * the accepted formats within the pixel limit. Every way an upload can fail (not an image,
 * another format, too many pixels, truncated or corrupt data) is an ImageRejected with a French
 * message, never a 500; the pixel limit is read from the header before anything is decoded.
 */
export async function convertImage<T>(
  input: Buffer,
  rules: ImageRules,
  convert: (image: Sharp) => Promise<T>,
): Promise<T> {
  let format: string | undefined;
  let pixels = 0;
  try {
    // The header only: nothing is decoded here, so no limit yet (ours comes next, in French).
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw new ImageRejected('format', messages.images.notAnImage);
  }
  if (!format || !rules.formats.has(format)) throw new ImageRejected('format', messages.images.notAnImage);
  const tooBig = () => new ImageRejected('pixels', messages.images.tooManyPixels(rules.maxPixels));
  if (pixels > rules.maxPixels) throw tooBig();
  try {
    return await convert(sharp(input, { limitInputPixels: rules.maxPixels }));
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error)?.message))) throw tooBig();
    throw new ImageRejected('unreadable', messages.images.unreadable);
  }
}
