// The floor of Fastify: Fastify and undici (the gateway's versions) forwarding GET /api/books to
// the trivial upstream with the hand-made hop (forward.mjs), with nothing else on: no logging, no
// token, no headers added.
import Fastify from 'fastify';
import { askUpstream } from './forward.mjs';

const app = Fastify({ logger: false });
app.get('/api/books', async (_request, reply) => {
  const response = await askUpstream('/books');
  reply.code(response.statusCode).header('content-type', response.contentType);
  return reply.send(response.body);
});
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
