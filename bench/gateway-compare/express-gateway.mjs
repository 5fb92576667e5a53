// Starts express-gateway (EG_PORT, EG_ADMIN_PORT, EG_UPSTREAM) from this folder's two settings
// files, with the user, application and credential models it ships, in a temporary folder.
import { cpSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const shipped = join(dirname(require.resolve('express-gateway/package.json')), 'lib', 'config', 'models');
const dir = mkdtempSync(join(tmpdir(), 'cartable-eg-'));
for (const file of ['gateway.config.yml', 'system.config.yml'])
  cpSync(join(import.meta.dirname, file), join(dir, file));
cpSync(shipped, join(dir, 'models'), { recursive: true });
process.env.EG_CONFIG_DIR = dir;
require('express-gateway')().load(dir).run();
