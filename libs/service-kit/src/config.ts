import { z } from 'zod';

/** Fastify's trustProxy: off, every peer, a hop count, or trusted addresses. */
export type TrustProxy = boolean | number | string[];

/** Settings every deployable reads; each service extends this with its own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Check every answer against its contract (costly); by default everywhere but in production. */
  CHECK_RESPONSES: z
    .enum(['true', 'false', ''])
    .optional()
    .transform((v) => (v ? v === 'true' : undefined)),
  /** Where embedded databases, generated keys and local images live. */
  DATA_DIR: z.string().default('.data'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of subjects and streams, so test runs sharing a NATS server never meet. */
  EVENT_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'lettres minuscules, chiffres et _ uniquement')
    .default(''),
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** Prometheus' GET /metrics, on a port of its own that neither the Ingress nor the gateway routes. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
  /**
   * Which peers may say who the client is (X-Forwarded-For) and pass their x-request-id: off
   * (default: the peer is the client), a hop count, or addresses and CIDRs (comma-separated;
   * `loopback`, `linklocal`, `uniquelocal` allowed). Never `true` on a public port.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value, ctx): TrustProxy => {
      const v = value.trim();
      if (v === '' || v === 'false' || v === 'off') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      const parts = v.split(',').map((p) => p.trim());
      const ok = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/;
      if (parts.some((p) => !ok.test(p))) {
        ctx.addIssue({ code: 'custom', message: 'adresses IP ou CIDR séparées par des virgules, un nombre, ou vide' });
        return z.NEVER;
      }
      return parts;
    }),
  /** Connections each replica may open to its database (replicas × this ≤ what the pooler allows). */
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  /**
   * Every session's lock_timeout and statement_timeout, in ms: a request that waits on a lock
   * held elsewhere gets a French 503 with Retry-After after DB_LOCK_TIMEOUT_MS instead of holding
   * its connection (and the pool the other routes need). 0 turns one off.
   */
  DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(2000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  /** How long a request waits for a database connection before its 503. */
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** JetStream replicas of the streams this service creates (3 in a clustered NATS). */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Transient handler failures are retried with backoff from INITIAL to MAX delay, for HOURS. */
  EVENT_RETRY_INITIAL_DELAY_MS: z.coerce.number().int().positive().default(1000),
  EVENT_RETRY_MAX_DELAY_MS: z.coerce.number().int().positive().default(300_000),
  EVENT_RETRY_HOURS: z.coerce.number().positive().default(24),
  /** How often each consumer compares its stream with what it went through (a stream deleted, purged, reset). */
  EVENT_GAP_CHECK_MS: z.coerce.number().int().positive().default(10_000),
  /** Idempotency records of handled events (longer than the streams' 30-day max age). */
  PROCESSED_EVENTS_RETENTION_DAYS: z.coerce.number().int().positive().default(35),
  /**
   * Sent outbox rows are kept this many days, the window within which `npm run events -- refeed`
   * can send a lost or cut stream its events again; then pruned.
   */
  OUTBOX_REPLAY_DAYS: z.coerce.number().positive().default(7),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** Whether answers are checked against their zod schemas (libs/service-kit/src/serialization.ts). */
export const checksResponses = (config: Pick<BaseConfig, 'CHECK_RESPONSES' | 'NODE_ENV'>) =>
  config.CHECK_RESPONSES ?? config.NODE_ENV !== 'production';

/** INTERNAL_SERVICE_TOKEN when none is set: known to everyone who reads this file, refused in production. */
export const DEVELOPMENT_INTERNAL_SERVICE_TOKEN = 'cartable-development-internal-service-token';

/**
 * The credential of the deployables among themselves: a shared secret every internal route of a
 * service asks for (auth's POST /internal/token-status), which no browser holds.
 */
export const internalServiceConfigSchema = z.object({
  INTERNAL_SERVICE_TOKEN: z.string().min(32, '32 caractères au moins').default(DEVELOPMENT_INTERNAL_SERVICE_TOKEN),
});

/** Settings whose default is a public development value: each must be set in production. */
const DEVELOPMENT_DEFAULTS: Record<string, string> = {
  INTERNAL_SERVICE_TOKEN: DEVELOPMENT_INTERNAL_SERVICE_TOKEN,
};

/**
 * How a deployable checks access tokens: auth's public keys, and whether a token was revoked
 * (Redis cache under REDIS_KEY_PREFIX, else auth's answer at AUTH_URL, reused
 * TOKEN_STATUS_CACHE_MS per token, asked with INTERNAL_SERVICE_TOKEN).
 */
export const jwksConfigSchema = z.object({
  ...internalServiceConfigSchema.shape,
  AUTH_JWKS_URL: z.string().url().default('http://127.0.0.1:4001/.well-known/jwks.json'),
  AUTH_URL: z.string().url().default('http://127.0.0.1:4001'),
  REDIS_KEY_PREFIX: z.string().default('cartable:'),
  TOKEN_STATUS_CACHE_MS: z.coerce.number().int().positive().default(5000),
});

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the environment against a zod schema. A missing or invalid value, or in production a
 * secret left at its development value, throws a ConfigError naming every faulty variable;
 * `bootstrap` turns it into exit code 1.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // Empty strings mean "not set", as in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = schema.safeParse(cleaned);
  const lines = result.success
    ? developmentSecretsInProduction(result.data as Record<string, unknown>)
    : result.error.issues.map((issue) => `  - ${issue.path.join('.') || '(racine)'}: ${issue.message}`);
  if (result.success && !lines.length) return result.data;
  throw new ConfigError(`Configuration invalide :\n${lines.join('\n')}`);
}

function developmentSecretsInProduction(config: Record<string, unknown>): string[] {
  if (config.NODE_ENV !== 'production') return [];
  return Object.entries(DEVELOPMENT_DEFAULTS)
    .filter(([name, value]) => config[name] === value)
    .map(([name]) => `  - ${name}: obligatoire en production (la valeur de développement est publique)`);
}
