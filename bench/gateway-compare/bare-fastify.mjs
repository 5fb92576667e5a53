// The floor of our stack: Fastify and undici (the gateway's versions) forwarding GET /api/books
// to the trivial upstream (BARE_UPSTREAM) as the gateway does (gateway/src/plugins/proxy.ts: a
// pool of kept-alive connections, an answer of known size read whole and sent in one write),
// with nothing else on: no logging, no token, no headers added. What our gateway costs beyond
// this is its own work.
import Fastify from 'fastify';
import { Agent } from 'undici';

const owners = new Agent({ connections: 128, pipelining: 1 });
const origin = process.env.BARE_UPSTREAM;
const app = Fastify({ logger: false });
app.get('/api/books', async (_request, reply) => {
  const answer = await owners.request({ origin, path: '/books', method: 'GET' });
  reply.code(answer.statusCode).header('content-type', answer.headers['content-type']);
  return reply.send(Buffer.from(await answer.body.arrayBuffer()));
});
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
