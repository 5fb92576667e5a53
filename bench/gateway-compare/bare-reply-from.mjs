// The floor of our gateway's own stack: Fastify and @fastify/reply-from on an undici pool (the
// gateway's versions) forwarding GET /api/books to the trivial upstream, with nothing else on: no
// logging, no token, no headers added. What our gateway costs beyond this is its own work.
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(replyFrom, {
  base: process.env.BARE_UPSTREAM,
  undici: { connections: 128, pipelining: 1 },
  disableRequestLogging: true,
});
app.get('/api/books', (_request, reply) => reply.from('/books'));
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
