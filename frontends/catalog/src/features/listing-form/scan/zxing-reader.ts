import { prepareZXingModule, readBarcodes, type ZXingModuleOverrides } from 'zxing-wasm/reader';

/**
 * ZXing-C++ compiled to WebAssembly (zxing-wasm), for browsers without a BarcodeDetector that
 * reads EAN-13. The library fetches its .wasm from a CDN unless told where it is: the browser's
 * build serves it beside our scripts (./wasm-reader.ts), a test hands it its bytes.
 */
export function prepareReader(overrides: ZXingModuleOverrides) {
  prepareZXingModule({ overrides });
}

/** The EAN-13 barcodes of an image (a photo's file, or a video frame's pixels), their digits only. */
export async function readEan13(image: Blob | ImageData | Uint8Array): Promise<string[]> {
  // A book's barcode often has a small price barcode (EAN-5) beside it: EAN-13 alone is asked for.
  const results = await readBarcodes(image, { formats: ['EAN13'], tryHarder: true, maxNumberOfSymbols: 2 });
  return results.filter((r) => r.isValid).map((r) => r.text);
}
