import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an endpoint of the tests received: the body and the two headers the simulator signs with. */
export interface Received {
  body: string;
  /** The payment webhooks' HMAC signature. */
  signature: string | undefined;
  /** The SMS webhooks' HTTP Basic credentials. */
  authorization: string | undefined;
}

/**
 * An endpoint the simulator calls back (a merchant's webhook, the SMS reports and replies): it
 * records what it receives and answers the status codes it is given in turn, then 200.
 */
export async function recordingEndpoint(codes: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({
        body,
        signature: req.headers['x-cartable-signature'] as string | undefined,
        authorization: req.headers.authorization,
      });
      res.statusCode = codes.shift() ?? 200;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    base,
    url: `${base}/webhook`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits for what the simulator does on its own time (the timeout only guards against a hang). */
export async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
