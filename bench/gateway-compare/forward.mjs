// The hop both floor lines make, as the gateway makes it (gateway/src/plugins/owner-answer.ts): a
// pool of kept-alive connections to the trivial upstream (BARE_UPSTREAM), undici's dispatch
// handler gathering an answer of known size whole, to be sent in one write.
import { Agent } from 'undici';

const owners = new Agent({ connections: 128, pipelining: 1 });
const origin = process.env.BARE_UPSTREAM;

/** GET `path` of the upstream: its status, content type and whole body. */
export function askUpstream(path) {
  return new Promise((resolve, reject) => {
    const answer = { statusCode: 0, contentType: '', chunks: [] };
    owners.dispatch(
      { origin, path, method: 'GET' },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode, headers) {
          answer.statusCode = statusCode;
          answer.contentType = headers['content-type'];
        },
        onResponseData(_controller, chunk) {
          answer.chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({
            statusCode: answer.statusCode,
            contentType: answer.contentType,
            body: Buffer.concat(answer.chunks),
          });
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}
