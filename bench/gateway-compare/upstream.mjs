// The trivial upstream every contender proxies to: a small JSON response, nothing else.
import { createServer } from 'node:http';

const body = JSON.stringify({ ok: true, books: [] });
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
