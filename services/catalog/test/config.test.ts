import { describe, expect, it } from 'vitest';
import { catalogConfigSchema } from '../src/config.ts';

const production = { NODE_ENV: 'production', AUTH_JWKS_URL: 'http://auth:4001/.well-known/jwks.json' };

describe('catalog settings', () => {
  it('production with an aggregator refuses the development webhook secret and key', () => {
    const parsed = catalogConfigSchema.safeParse({ ...production, PAYMENT_AGGREGATOR_URL: 'https://pay.example.ga' });
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['PAYMENT_WEBHOOK_SECRET', 'PAYMENT_AGGREGATOR_KEY']));
  });

  it('production with its own secrets, or with manual payments only, starts', () => {
    expect(
      catalogConfigSchema.safeParse({
        ...production,
        PAYMENT_AGGREGATOR_URL: 'https://pay.example.ga',
        PAYMENT_AGGREGATOR_KEY: 'live-key-from-the-aggregator',
        PAYMENT_WEBHOOK_SECRET: 'a-long-random-secret-from-the-vault',
      }).success,
    ).toBe(true);
    expect(catalogConfigSchema.safeParse(production).success).toBe(true);
  });
});
