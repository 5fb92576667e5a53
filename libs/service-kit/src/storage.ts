import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import type { Readable } from 'node:stream';

/** Where images live; local disk by default, S3-compatible (MinIO) in compose and Kubernetes. */
export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
  /** Public path of an object, served by the gateway under /storage/. */
  url(key: string): string;
}

function safeKey(key: string): string {
  const clean = normalize(key).replace(/^(\.\.(\/|\\|$))+/, '');
  if (clean.startsWith('/') || clean.includes('..')) throw new Error(`invalid storage key: ${key}`);
  return clean;
}

export function createLocalStorage(root: string): Storage {
  return {
    async put(key, body) {
      const path = join(root, safeKey(key));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
    },
    async get(key) {
      const path = join(root, safeKey(key));
      try {
        await stat(path);
      } catch {
        return null;
      }
      return createReadStream(path);
    },
    async delete(key) {
      await rm(join(root, safeKey(key)), { force: true });
    },
    url: (key) => `/storage/${safeKey(key)}`,
  };
}
