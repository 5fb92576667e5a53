#!/usr/bin/env node
// `node scripts/precompress.mjs <dist>`: writes a .br and a .gz beside every text asset and
// WebAssembly module (the barcode reader's shrinks to a third) of a built frontend, once at
// build time (the most compact settings: time spent here costs nothing
// to phones on 2G/3G), so the gateway sends them as they are (@fastify/static preCompressed).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|html|json|svg|txt|map|wasm)$/;
/** Smaller than this, the headers cost more than the saving. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (TEXT.test(entry.name)) yield path;
  }
}

const dist = process.argv[2];
if (!dist) {
  console.error('usage: precompress.mjs <dist>');
  process.exit(1);
}
let raw = 0;
let br = 0;
let count = 0;
for (const path of files(dist)) {
  if (statSync(path).size < MIN_BYTES) continue;
  const source = readFileSync(path);
  const brotli = brotliCompressSync(source, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
    },
  });
  writeFileSync(`${path}.br`, brotli);
  writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
  raw += source.length;
  br += brotli.length;
  count++;
}
console.log(
  `precompress ${dist}: ${count} files, ${(raw / 1024).toFixed(0)} KiB → ${(br / 1024).toFixed(0)} KiB (brotli)`,
);
