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

  it('production with eBilling or MyPVit refuses their development credentials, and starts with real ones', () => {
    const both = {
      ...production,
      PAYMENT_EBILLING_URL: 'https://www.billing-easy.com',
      PAYMENT_MYPVIT_URL: 'https://api.mypvit.pro',
    };
    const parsed = catalogConfigSchema.safeParse(both);
    expect(parsed.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'PAYMENT_EBILLING_KEY',
      'PAYMENT_EBILLING_USERNAME',
      'PAYMENT_MYPVIT_ACCOUNT',
      'PAYMENT_MYPVIT_PASSWORD',
    ]);
    const real = {
      ...both,
      PAYMENT_EBILLING_USERNAME: 'cartable',
      PAYMENT_EBILLING_KEY: 'a-shared-key-from-digitech',
      PAYMENT_MYPVIT_ACCOUNT: 'ACC_68B6AA786474B',
      PAYMENT_MYPVIT_PASSWORD: 'a-password-from-the-vault',
    };
    expect(catalogConfigSchema.safeParse(real).success).toBe(true);
    // Left empty in .env, a provider is simply off.
    expect(
      catalogConfigSchema.parse({ PAYMENT_EBILLING_URL: '', PAYMENT_MYPVIT_URL: '' }).PAYMENT_EBILLING_URL,
    ).toBeUndefined();
  });
});
