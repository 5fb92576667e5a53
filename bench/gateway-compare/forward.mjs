// The hand-made hop of two floor lines: a pool of kept-alive connections to the trivial upstream
// (BARE_UPSTREAM), undici's dispatch handler gathering a response of known size whole, to be sent
// in one write. The least work a Node proxy can do per request; the gateway itself forwards with
// @fastify/reply-from (bare-reply-from.mjs is that floor).
import { Agent } from 'undici';

const upstreams = new Agent({ connections: 128, pipelining: 1 });
const origin = process.env.BARE_UPSTREAM;

/** GET `path` of the upstream: its status, content type and whole body. */
export function askUpstream(path) {
  return new Promise((resolve, reject) => {
    const response = { statusCode: 0, contentType: '', chunks: [] };
    upstreams.dispatch(
      { origin, path, method: 'GET' },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode, headers) {
          response.statusCode = statusCode;
          response.contentType = headers['content-type'];
        },
        onResponseData(_controller, chunk) {
          response.chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({
            statusCode: response.statusCode,
            contentType: response.contentType,
            body: Buffer.concat(response.chunks),
          });
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}
