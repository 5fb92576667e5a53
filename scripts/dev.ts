/**
 * `npm start`, once dependencies and frontends are in place (scripts/start.mjs sees to that):
 * infrastructure, databases, the mail catcher, every service and the gateway.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDatabases,
  databaseUrl,
  ensureNats,
  ensurePostgres,
  ensureRedis,
  startedServers,
} from '@cartable/stack/infrastructure';
import { startMailCatcher } from '@cartable/stack/mail-catcher';
import { defaultPorts, repoRoot, type Service, services, startStack } from '@cartable/stack/processes';

// A .env at the root overrides the defaults (see .env.example); children inherit it.
if (existsSync(join(repoRoot, '.env'))) process.loadEnvFile(join(repoRoot, '.env'));
const dataDir = join(repoRoot, '.data');
const say = (line: string) => console.log(`\x1b[32m▸\x1b[0m ${line}`);

say('Vérification de PostgreSQL, NATS et Redis…');
const pgAdmin = await ensurePostgres(dataDir);
await ensureNats(dataDir);
await ensureRedis(dataDir);

const databaseUrls: Partial<Record<Service, string>> = {};
if (pgAdmin) {
  const names = services.map((s) => `cartable_${s}`);
  await createDatabases(pgAdmin, names);
  for (const s of services) databaseUrls[s] = databaseUrl(pgAdmin, `cartable_${s}`);
  say('PostgreSQL : une base par service (cartable_auth, cartable_catalog, …)');
} else {
  say('PostgreSQL introuvable : chaque service utilise PGlite embarqué sous .data/<service>/');
}

const mail = await startMailCatcher({ smtp: 1025, web: 1080, mailDirectory: join(dataDir, 'mail') });
say(`Boîte mail de développement : ${mail.webUrl}`);

say('Démarrage des services…');
const stack = await startStack({
  ports: defaultPorts,
  env: {
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    DATA_DIR: dataDir,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mail.smtpPort),
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${defaultPorts.gateway}`,
    // A demo catalogue and its sellers on a first start; SEED_DEMO=0 for an empty one.
    SEED_DEMO: process.env.SEED_DEMO ?? '1',
  },
  databaseUrls,
  logDir: join(dataDir, 'logs'),
  // As Kubernetes would: a service that dies is started again, five times a minute at most.
  restart: { max: 5, windowMs: 60_000 },
  onRestart: (name, message) => console.log(`\x1b[31m[${name}]\x1b[0m ${message}`),
  onProblem: (name, line) => console.log(`\x1b[33m[${name}]\x1b[0m ${line}`),
});

console.log(`
  Cartable est prêt.

  Site            http://localhost:${defaultPorts.gateway}
  API             http://localhost:${defaultPorts.gateway}/api
  Emails          ${mail.webUrl}
  Administrateur  ${process.env.ADMIN_EMAIL ?? 'admin@cartable.ga'} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : 'Cartable2026!'}
  Journaux        .data/logs/<service>.log

  Ctrl-C pour tout arrêter.
`);

let stopping = false;
/** Ctrl-C reaches every process of the group: then the services are only waited for. */
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  say('Arrêt…');
  await stack.stopAll(signal === 'SIGINT' ? null : 'SIGTERM');
  await mail.stop();
  for (const server of startedServers) server.kill('SIGTERM');
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
