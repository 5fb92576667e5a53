import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage, createS3Storage, type Storage, storageConfigSchema } from '../src/index.ts';

/** The same contract for both drivers: what is put comes back, deleted is gone, keys stay inside. */
const dir = mkdtempSync(join(tmpdir(), 'cartable-storage-'));
let s3rver: S3rver;
let s3Port = 0;

beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
  const address = await s3rver.run();
  s3Port = address.port;
});
afterAll(async () => {
  await s3rver?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function read(stream: Readable | null) {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const drivers: Array<[string, () => Promise<Storage>]> = [
  ['local disk', async () => createLocalStorage(join(dir, 'local'))],
  [
    'S3 (s3rver)',
    () =>
      createS3Storage(
        storageConfigSchema.parse({
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: '127.0.0.1',
          S3_PORT: String(s3Port),
          S3_ACCESS_KEY: 'S3RVER',
          S3_SECRET_KEY: 'S3RVER',
          S3_BUCKET: 'cartable-test',
        }),
      ),
  ],
];

describe.each(drivers)('%s storage', (_name, make) => {
  it('stores, reads back and deletes an object, answering null once it is gone', async () => {
    const storage = await make();
    const body = Buffer.from('RIFF....WEBPVP8 fake image bytes');
    await storage.put('books/abc.webp', body, 'image/webp');
    expect(await read(await storage.get('books/abc.webp'))).toEqual(body);
    expect(storage.url('books/abc.webp')).toBe('/storage/books/abc.webp');
    await storage.delete('books/abc.webp');
    expect(await storage.get('books/abc.webp')).toBeNull();
    expect(await storage.get('never/there.webp')).toBeNull();
  });

  it('refuses keys that climb out of the store', async () => {
    const storage = await make();
    await expect(storage.put('../escape.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow();
  });
});
