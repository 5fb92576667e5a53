import { parseIsbn } from '@cartable/contracts/isbn-digits';

/** What a scan reads from: the live video, or a photo's file. */
export type ScanSource = HTMLVideoElement | Blob;

export interface BarcodeReader {
  /** The browser's own detector, or the WebAssembly one. */
  kind: 'native' | 'wasm';
  /** The EAN-13 barcodes seen in the source, digits only. */
  read(source: ScanSource): Promise<string[]>;
}

/** The Shape Detection API's BarcodeDetector (Chrome on Android, Safari 17+), absent from TypeScript's DOM types. */
interface NativeDetector {
  detect(image: ImageBitmapSource): Promise<Array<{ rawValue: string }>>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

async function nativeDetector(): Promise<NativeDetector | null> {
  const Detector = (window as unknown as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    return (await Detector.getSupportedFormats()).includes('ean_13') ? new Detector({ formats: ['ean_13'] }) : null;
  } catch {
    return null;
  }
}

/** A video frame's pixels, at most 1280 px wide: enough for a barcode, little for a phone to copy. */
function framePixels(video: HTMLVideoElement, canvas: HTMLCanvasElement): ImageData | null {
  const { videoWidth, videoHeight } = video;
  if (!videoWidth || !videoHeight) return null;
  const scale = Math.min(1, 1280 / videoWidth);
  canvas.width = Math.round(videoWidth * scale);
  canvas.height = Math.round(videoHeight * scale);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

/**
 * The browser's BarcodeDetector where it reads EAN-13, else ZXing's WebAssembly reader, loaded
 * here only: neither is in the listing page's first load.
 */
export async function loadBarcodeReader(): Promise<BarcodeReader> {
  const detector = await nativeDetector();
  if (detector) {
    return {
      kind: 'native',
      read: async (source) =>
        (await detector.detect(source instanceof Blob ? await createImageBitmap(source) : source)).map(
          (b) => b.rawValue,
        ),
    };
  }
  const { readEan13 } = await import(/* webpackChunkName: "barcode-wasm" */ './wasm-reader');
  const canvas = document.createElement('canvas');
  return {
    kind: 'wasm',
    read: async (source) => {
      if (source instanceof Blob) return readEan13(source);
      const pixels = framePixels(source, canvas);
      return pixels ? readEan13(pixels) : [];
    },
  };
}

/** What barcodes read say: a book's ISBN-13, another product's EAN-13, or nothing yet. */
export function isbnOfBarcodes(texts: string[]): { isbn13: string } | { notABook: string } | null {
  let other: string | null = null;
  for (const text of texts) {
    const parsed = parseIsbn(text);
    if ('isbn13' in parsed) return { isbn13: parsed.isbn13 };
    if (parsed.problem === 'notABook') other ??= text;
  }
  return other ? { notABook: other } : null;
}
