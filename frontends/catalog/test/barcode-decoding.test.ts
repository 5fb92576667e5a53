import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bwipjs from 'bwip-js/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { isbnOfBarcodes } from '../src/features/listing-form/scan/barcode-reader';
import { prepareReader, readEan13 } from '../src/features/listing-form/scan/zxing-reader';

/**
 * The WebAssembly reader the listing form falls back on, fed barcodes drawn by bwip-js (as a
 * book's back cover prints them): the module the browser loads, with its .wasm handed over from
 * node_modules instead of fetched from the gateway.
 */
const require = createRequire(import.meta.url);

beforeAll(() => {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareReader({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
});

/** A barcode as a PNG: white background and margins, as on paper (transparent pixels would read as black). */
const barcode = (bcid: string, text: string, options: Record<string, unknown> = {}) =>
  bwipjs
    .toBuffer({
      bcid,
      text,
      scale: 3,
      height: 20,
      includetext: true,
      paddingwidth: 20,
      paddingheight: 10,
      backgroundcolor: 'FFFFFF',
      ...options,
    })
    .then((png) => new Uint8Array(png));

const isbnOf = async (image: Uint8Array) => isbnOfBarcodes(await readEan13(image));

describe('reading a book’s barcode with the WebAssembly reader', () => {
  it('reads the ISBN-13 of an EAN-13 barcode', async () => {
    expect(await isbnOf(await barcode('ean13', '9782729810429'))).toEqual({ isbn13: '9782729810429' });
  });

  it('reads a back cover’s ISBN barcode with its price add-on, the add-on aside', async () => {
    const image = await barcode('isbn', '978-0-306-40615-7 90000');
    expect(await readEan13(image)).toEqual(['9780306406157']);
    expect(await isbnOf(image)).toEqual({ isbn13: '9780306406157' });
  });

  it('reads a small barcode, rotated as a photo may take it', async () => {
    const image = await barcode('ean13', '9791090636071', { scale: 2, height: 12, rotate: 'L' });
    expect(await isbnOf(image)).toEqual({ isbn13: '9791090636071' });
  });

  it('tells another product’s EAN-13 from a book’s', async () => {
    expect(await isbnOf(await barcode('ean13', '4006381333931'))).toEqual({ notABook: '4006381333931' });
  });

  it('finds nothing in an image without a barcode, or with a QR code', async () => {
    expect(await readEan13(await barcode('qrcode', 'https://cartable.ga'))).toEqual([]);
    expect(isbnOfBarcodes([])).toBeNull();
  });
});
