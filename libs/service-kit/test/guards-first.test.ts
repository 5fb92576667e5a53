import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp } from '../src/index.ts';
import { refusedBeforeValidation, testTokens } from '../testing/index.ts';

/**
 * Who may call a route is answered before what they sent is judged: guards run at onRequest, and
 * one placed in a later hook is refused when the route is registered.
 */
describe('guards', () => {
  it('answer 403 to a member without the permission, whatever the body', async () => {
    const { guards, token } = await testTokens();
    const app = createHttpApp({ name: 'test', logger: false });
    app.post(
      '/admin/things',
      { onRequest: guards.requirePermission('things.manage'), schema: { body: z.object({ name: z.string() }) } },
      async () => ({ ok: true }),
    );
    await app.ready();
    const { walked, wrong } = await refusedBeforeValidation(app, (await token()).token);
    expect(walked).toEqual(['POST /admin/things']);
    expect(wrong).toEqual([]);
    const allowed = (await token({ permissions: ['things.manage'] })).token;
    const invalid = await app.inject({
      method: 'POST',
      url: '/admin/things',
      headers: { authorization: `Bearer ${allowed}` },
      payload: [],
    });
    expect(invalid.statusCode).toBe(422);
    await app.close();
  });

  it('placed after onRequest make the route refused at start-up', async () => {
    const { guards } = await testTokens();
    const app = createHttpApp({ name: 'test', logger: false });
    expect(() => app.post('/admin/things', { preHandler: guards.requireAdmin }, async () => ({ ok: true }))).toThrow(
      'a guard runs at onRequest, not at preHandler',
    );
    await app.close();
  });
});
