import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@cartable/stack/processes';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { gatewayConfigSchema } from '../../gateway/src/config.ts';
import { authConfigSchema } from '../../services/auth/src/config.ts';
import { catalogConfigSchema } from '../../services/catalog/src/config.ts';
import { messagingConfigSchema } from '../../services/messaging/src/config.ts';
import { moderationConfigSchema } from '../../services/moderation/src/config.ts';
import { notificationsConfigSchema } from '../../services/notifications/src/config.ts';

const schemas: Record<string, z.ZodObject> = {
  gateway: gatewayConfigSchema,
  auth: authConfigSchema,
  catalog: catalogConfigSchema,
  messaging: messagingConfigSchema,
  moderation: moderationConfigSchema,
  notifications: notificationsConfigSchema,
};

describe('.env.example', () => {
  const listed = new Set(
    readFileSync(join(repoRoot, '.env.example'), 'utf8')
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1])
      .filter(Boolean),
  );

  it.each(Object.entries(schemas))('lists every variable %s reads', (_name, schema) => {
    const missing = Object.keys(schema.shape).filter((key) => !listed.has(key));
    expect(missing).toEqual([]);
  });
});
