// The floor of our stack: Fastify and undici (the gateway's versions) forwarding GET /api/books
// to the trivial upstream as the gateway does (forward.mjs), with nothing else on: no logging, no
// token, no headers added. What our gateway costs beyond this is its own work.
import Fastify from 'fastify';
import { askUpstream } from './forward.mjs';

const app = Fastify({ logger: false });
app.get('/api/books', async (_request, reply) => {
  const answer = await askUpstream('/books');
  reply.code(answer.statusCode).header('content-type', answer.contentType);
  return reply.send(answer.body);
});
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
