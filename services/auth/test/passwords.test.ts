import { afterEach, describe, expect, it } from 'vitest';
import { configurePasswordWork, hashPassword, verifyPassword } from '../src/domain/passwords.ts';

describe('argon2 work queue', () => {
  afterEach(() => configurePasswordWork({ concurrency: 2, maxWaiting: 64 }));

  it('serves a login before the hashes that were waiting ahead of it', async () => {
    configurePasswordWork({ concurrency: 1, maxWaiting: 64 });
    const stored = await hashPassword('Cartable1a');
    const finished: string[] = [];
    const hashes = Array.from({ length: 6 }, (_, i) =>
      hashPassword(`Flood${i}aa`).then(() => finished.push(`hash${i}`)),
    );
    const login = verifyPassword(stored, 'Cartable1a').then((ok) => finished.push(ok ? 'login' : 'refused'));
    await Promise.all([...hashes, login]);
    // The first hash was already running; the login goes right after it, before the other five.
    expect(finished.indexOf('login')).toBeLessThanOrEqual(1);
  });

  it('turns work away with 503 once the line is full, instead of letting it pile up', async () => {
    configurePasswordWork({ concurrency: 1, maxWaiting: 3 });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => hashPassword(`Pile${i}aaa`)));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 503 });
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(4);
  });
});
