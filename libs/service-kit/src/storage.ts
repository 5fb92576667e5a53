import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import type { Readable } from 'node:stream';
import { Client as MinioClient } from 'minio';
import { z } from 'zod';

/** Where images live; local disk by default, S3-compatible (MinIO) in compose and Kubernetes. */
export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
  /** Public path of an object, served by the gateway under /storage/. */
  url(key: string): string;
}

/** Keys are relative paths inside the store; anything that could climb out is refused, not rewritten. */
function safeKey(key: string): string {
  const clean = normalize(key);
  if (!key || clean.startsWith('/') || clean.startsWith('..') || clean.includes('\0') || clean !== key) {
    throw new Error(`invalid storage key: ${key}`);
  }
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

/** Storage settings shared by the services that write images and the gateway that serves them. */
export const storageConfigSchema = z.object({
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().default('127.0.0.1'),
  S3_PORT: z.coerce.number().int().positive().default(9000),
  S3_USE_SSL: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  S3_ACCESS_KEY: z.string().default('minioadmin'),
  S3_SECRET_KEY: z.string().default('minioadmin'),
  S3_BUCKET: z.string().default('cartable'),
  S3_REGION: z.string().default('us-east-1'),
});
export type StorageConfig = z.infer<typeof storageConfigSchema>;

const isMissing = (err: unknown) =>
  ['NoSuchKey', 'NotFound', 'NoSuchBucket'].includes((err as { code?: string }).code ?? '');

/**
 * S3-compatible storage (MinIO in compose and Kubernetes). Objects are read back through the
 * gateway under /storage/, so the bucket stays private.
 */
export async function createS3Storage(config: StorageConfig): Promise<Storage> {
  const client = new MinioClient({
    endPoint: config.S3_ENDPOINT,
    port: config.S3_PORT,
    useSSL: config.S3_USE_SSL,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    region: config.S3_REGION,
  });
  const bucket = config.S3_BUCKET;
  if (!(await client.bucketExists(bucket).catch(() => false))) {
    await client.makeBucket(bucket, config.S3_REGION).catch(async (err: unknown) => {
      // Another replica made it first.
      if (!(await client.bucketExists(bucket).catch(() => false))) throw err;
    });
  }
  return {
    async put(key, body, contentType) {
      await client.putObject(bucket, safeKey(key), body, body.length, {
        'Content-Type': contentType,
        'Cache-Control': 'public, max-age=31536000, immutable',
      });
    },
    async get(key) {
      try {
        return await client.getObject(bucket, safeKey(key));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      await client.removeObject(bucket, safeKey(key));
    },
    url: (key) => `/storage/${safeKey(key)}`,
  };
}

/** The storage the settings name: local disk under DATA_DIR/storage by default, or S3. */
export function createStorage(config: StorageConfig, dataDir: string): Promise<Storage> {
  return config.STORAGE_DRIVER === 's3'
    ? createS3Storage(config)
    : Promise.resolve(createLocalStorage(`${dataDir}/storage`));
}
