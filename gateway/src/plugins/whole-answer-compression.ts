import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface WholeAnswerCompression {
  /** Smaller answers are sent as they are. */
  threshold: number;
  /**
   * Larger answers are left to @fastify/compress's stream: a synchronous call holds the event
   * loop for its length (brotli at quality 4: about 0.1 ms for 12 KiB of JSON).
   */
  maxBytes: number;
  brotliQuality: number;
  compressible: (contentType: string) => boolean;
}

const ENCODINGS = ['br', 'gzip'];

/**
 * The compressed forms of a payload sent again and again (an answer the gateway keeps for
 * visitors, plugins/shared-answers.ts), by encoding: each is made once, not at every sending.
 * Held as long as the payload itself.
 */
const compressedForms = new WeakMap<Buffer, { br?: Buffer; gzip?: Buffer }>();

/** Marks a payload that will be sent many times: its compressed forms are kept with it. */
export function compressOnce(payload: Buffer): void {
  if (!compressedForms.has(payload)) compressedForms.set(payload, {});
}

/**
 * An onSend hook for answers already whole in memory (a proxied answer of known size, read into a
 * buffer by the proxy; the gateway's own JSON): compressed in one synchronous call and sent with
 * its length. @fastify/compress would make a stream of the buffer, pipe it through zlib and send
 * the result in chunks, several socket writes where one suffices: on a page of listings (12 KiB of
 * JSON, 2 KiB compressed) that cost the gateway 1.5–1.7 ms of CPU a request, 0.7–0.8 ms now, of
 * which the call is 0.1 ms (bench/catalog, « compressed » run). An answer this hook marks compressed is passed over by
 * @fastify/compress, which keeps streams, large answers and other types.
 */
export function compressWholeAnswer(options: WholeAnswerCompression) {
  const brotliParams = { [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality };
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, body: unknown) => void) => {
    const size =
      typeof payload === 'string' ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : -1;
    if (size < options.threshold || size > options.maxBytes) return done(null, payload);
    const contentType = reply.getHeader('content-type');
    const contentEncoding = reply.getHeader('content-encoding');
    if (
      typeof contentType !== 'string' ||
      !options.compressible(contentType) ||
      (contentEncoding !== undefined && contentEncoding !== 'identity') ||
      // A part of a file is sent as it is: its range counts the bytes of the whole.
      reply.hasHeader('content-range') ||
      request.headers['x-no-compression'] !== undefined
    ) {
      return done(null, payload);
    }
    const accepted = request.headers['accept-encoding'];
    // As @fastify/compress reads it: « * » and « x-gzip » stand for gzip.
    const encoding = accepted ? negotiate(accepted.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), ENCODINGS) : null;
    if (encoding !== 'br' && encoding !== 'gzip') return done(null, payload);
    const body = payload as string | Buffer;
    const forms = Buffer.isBuffer(body) ? compressedForms.get(body) : undefined;
    let compressed = forms?.[encoding];
    if (!compressed) {
      compressed =
        encoding === 'br'
          ? brotliCompressSync(body, {
              params: { ...brotliParams, [constants.BROTLI_PARAM_SIZE_HINT]: size },
            })
          : gzipSync(body);
      if (forms) forms[encoding] = compressed;
    }
    const vary = reply.getHeader('vary');
    const varies = [vary ?? []].flat().map(String);
    if (!varies.some((v) => /accept-encoding/i.test(v)))
      reply.header('vary', [...varies, 'accept-encoding'].join(', '));
    reply.header('content-encoding', encoding);
    reply.header('content-length', compressed.length);
    done(null, compressed);
  };
}
