// The floor of our stack: Fastify and undici (the gateway's versions) forwarding GET /api/books
// to the trivial upstream (BARE_UPSTREAM) as the gateway does (gateway/src/plugins/owner-answer.ts:
// a pool of kept-alive connections, undici's dispatch handler gathering an answer of known size
// whole, sent in one write), with nothing else on: no logging, no token, no headers added. What
// our gateway costs beyond this is its own work.
import Fastify from 'fastify';
import { Agent } from 'undici';

const owners = new Agent({ connections: 128, pipelining: 1 });
const origin = process.env.BARE_UPSTREAM;

/** The upstream's status, headers and whole body. */
function ask(options) {
  return new Promise((resolve, reject) => {
    const answer = { statusCode: 0, headers: {}, chunks: [] };
    owners.dispatch(options, {
      onRequestStart() {},
      onResponseStart(_controller, statusCode, headers) {
        answer.statusCode = statusCode;
        answer.headers = headers;
      },
      onResponseData(_controller, chunk) {
        answer.chunks.push(chunk);
      },
      onResponseEnd() {
        resolve(answer);
      },
      onResponseError(_controller, error) {
        reject(error);
      },
    });
  });
}

const app = Fastify({ logger: false });
app.get('/api/books', async (_request, reply) => {
  const answer = await ask({ origin, path: '/books', method: 'GET' });
  reply.code(answer.statusCode).header('content-type', answer.headers['content-type']);
  return reply.send(Buffer.concat(answer.chunks));
});
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
