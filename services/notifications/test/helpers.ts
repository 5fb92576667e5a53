import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, openDatabase } from '@cartable/service-kit';
import { testDatabase } from '@cartable/stack/databases';
import { startMailCatcher } from '@cartable/stack/mail-catcher';
import { freePort } from '@cartable/stack/ports';
import pino from 'pino';

import { notificationsConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';

export { freePort };

export const silent = pino({ level: 'silent' });

/** notifications' own database (migrated) on the machine's PostgreSQL, dropped by close(). */
export async function notificationsDatabase() {
  const database = await testDatabase('notifications');
  const opened = await openDatabase({
    name: 'notifications',
    url: database.url,
    dataDir: database.dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  return {
    id: database.id,
    db: opened.db,
    async close() {
      await opened.close();
      await database.drop();
    },
  };
}

/** A real SMTP catcher (maildev) on free ports. */
export async function mailCatcher() {
  const dir = mkdtempSync(join(tmpdir(), 'cartable-mail-'));
  const catcher = await startMailCatcher({ smtp: await freePort(), web: await freePort(), mailDirectory: dir });
  return {
    ...catcher,
    /** Stops it for good and removes its mails (stop() and start() pause it). */
    async close() {
      await catcher.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A real SMTP server that refuses every recipient with a 550, as a mailbox provider does for an
 * address that does not exist.
 */
export async function refusingSmtpServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createTcpServer((socket) => {
    socket.write('220 refuse.test ESMTP\r\n');
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const command = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (command.startsWith('EHLO') || command.startsWith('HELO')) socket.write('250 refuse.test\r\n');
        else if (command.startsWith('MAIL FROM')) socket.write('250 OK\r\n');
        else if (command.startsWith('RCPT TO')) socket.write('550 5.1.1 No such user here\r\n');
        else if (command.startsWith('QUIT')) socket.end('221 Bye\r\n');
        else socket.write('503 Bad sequence of commands\r\n');
      }
    });
    socket.on('error', () => {});
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { port, close: () => new Promise((r) => server.close(() => r())) };
}

export function testConfig(env: Record<string, string>) {
  return loadConfig(notificationsConfigSchema, { LOG_LEVEL: 'silent', PUBLIC_URL: 'https://cartable.ga', ...env });
}
