// The floor of any gateway on Node: node:http and undici forwarding GET /api/books to the trivial
// upstream (forward.mjs), with no framework and nothing else on. No gateway written in Node, with
// or without Fastify, can serve more than this on the machine that runs the comparison.
import { createServer } from 'node:http';
import { askUpstream } from './forward.mjs';

createServer((request, response) => {
  if (request.method !== 'GET' || request.url !== '/api/books') {
    response.writeHead(404).end();
    return;
  }
  askUpstream('/books').then(
    (upstream) => {
      response.writeHead(upstream.statusCode, {
        'content-type': upstream.contentType,
        'content-length': upstream.body.length,
      });
      response.end(upstream.body);
    },
    () => response.writeHead(502).end(),
  );
}).listen(Number(process.env.BARE_PORT), '127.0.0.1');
