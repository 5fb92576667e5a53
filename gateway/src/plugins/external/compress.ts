import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** Smaller responses go uncompressed: the headers would cost more than the saving. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Responses over 1 KiB go compressed when the browser asks (book lists are tens of KiB of
 * repetitive JSON, and phones here pay per megabyte). The frontends' files are compressed once at
 * build time and sent as they are (plugins/external/static.ts); an event stream is never
 * compressed (its route says `compress: false`).
 */
const compression: FastifyPluginAsync = async (app) => {
  await app.register(compress, {
    global: true,
    // Responses only: a compressed request body is refused (415, encodedBodyRefusal in the body
    // parsers), and no route pays for the inflating hook @fastify/compress would add.
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    // Brotli at a low quality: fast enough for every response, most of the saving.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
};

export const compressPlugin = fp(compression, { name: 'cartable-compress' });
