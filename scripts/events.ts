// `npm run events -- dlq list|replay|drop`: the operator's view of dead letters (events that a
// consumer could never handle), and the way to send them back once the cause is fixed.
// `npm run events -- refeed <stream>`: a stream lost or cut is fed again from its producer's outbox.
import { parseArgs } from 'node:util';
import { type Producer, producers, streamName } from '@cartable/contracts';
// The two operations only, not the kit's whole index (fastify, storage, PGlite…): the command
// starts a third sooner.
import { listDeadLetters, replayDeadLetters } from '@cartable/service-kit/dead-letters';
import { refeedStream } from '@cartable/service-kit/refeed';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

const usage = `Usage : npm run events -- dlq <commande> [options]
        npm run events -- refeed <flux> [--since DATE | --from ID]

  dlq list    [--consumer NOM] [--json]         les lettres mortes, de la plus ancienne à la plus récente
  dlq replay  [--consumer NOM] [--seq N,...]    renvoie ces événements à leur consommateur (et à lui seul)
  dlq drop    --seq N,...                       supprime ces lettres mortes sans les rejouer
  refeed FLUX [--since DATE] [--from ID]        republie depuis l'outbox du service producteur (auth, catalog,
                                                messaging, moderation) ce qu'il a déjà publié, avec les
                                                identifiants d'origine : rien n'est appliqué deux fois

NATS_URL (nats://127.0.0.1:4222) et EVENT_NAMESPACE (vide) désignent le serveur et l'espace des flux ;
refeed lit la base du producteur dans <PRODUCTEUR>_DATABASE_URL (ou --database URL). L'outbox garde
les événements envoyés OUTBOX_REPLAY_DAYS jours (7).`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    consumer: { type: 'string' },
    seq: { type: 'string' },
    json: { type: 'boolean', default: false },
    since: { type: 'string' },
    from: { type: 'string' },
    database: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const [group, command] = positionals;
const namespace = process.env.EVENT_NAMESPACE ?? '';
const natsServers = (process.env.NATS_URL ?? 'nats://127.0.0.1:4222').split(',');
if (!values.help && group === 'refeed') {
  await refeed(command ?? '');
  process.exit(0);
}
if (values.help || group !== 'dlq' || !['list', 'replay', 'drop'].includes(command ?? '')) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

/** `refeed <stream>`: the producer named, or its stream's name (AUTH, <NAMESPACE>_AUTH). */
async function refeed(stream: string) {
  const producer = producers.find(
    (p) => p === stream.toLowerCase() || streamName(p, namespace) === stream.toUpperCase(),
  ) as Producer | undefined;
  if (!producer) {
    console.error(`Flux inconnu : « ${stream} ». Flux possibles : ${producers.join(', ')}.\n\n${usage}`);
    process.exit(2);
  }
  if (values.since && values.from) {
    console.error('refeed prend --since ou --from, pas les deux.');
    process.exit(2);
  }
  const since = values.since ? new Date(values.since) : undefined;
  if (since && Number.isNaN(since.getTime())) {
    console.error(`--since attend une date (2026-12-07T04:00:00Z), pas « ${values.since} ».`);
    process.exit(2);
  }
  const url = values.database ?? process.env[`${producer.toUpperCase()}_DATABASE_URL`];
  if (!url) {
    console.error(
      `La base de ${producer} est introuvable : donnez ${producer.toUpperCase()}_DATABASE_URL ou --database.`,
    );
    process.exit(2);
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const nc = await connect({ servers: natsServers, timeout: 5000 });
  try {
    const result = await refeedStream({
      db: drizzle(pool) as never,
      nc,
      namespace,
      producer,
      ...(since ? { since } : {}),
      ...(values.from ? { fromId: values.from } : {}),
      streamReplicas: Number(process.env.NATS_STREAM_REPLICAS ?? 1),
    });
    console.log(
      `${result.published} événement(s) republié(s) dans ${streamName(producer, namespace)} ` +
        `(${result.duplicates} déjà dans le flux, ignoré(s) par JetStream).`,
    );
  } catch (err) {
    console.error(`refeed impossible : ${(err as Error).message}`);
    process.exit(1);
  } finally {
    await nc.close();
    await pool.end();
  }
}

const seqs = values.seq
  ?.split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
if (values.seq && !seqs?.length) {
  console.error('--seq attend des numéros séparés par des virgules.');
  process.exit(2);
}

const nc = await connect({ servers: natsServers, timeout: 5000 });
try {
  if (command === 'list') {
    const letters = await listDeadLetters(nc, namespace, values.consumer ? { consumer: values.consumer } : {});
    if (values.json) {
      console.log(JSON.stringify(letters, null, 2));
    } else if (letters.length === 0) {
      console.log('Aucune lettre morte.');
    } else {
      for (const l of letters) {
        let type = '';
        try {
          type = (JSON.parse(l.data) as { type?: string }).type ?? '';
        } catch {
          type = '(illisible)';
        }
        console.log(
          `#${l.seq}  ${l.failedAt}  ${l.consumer}  ${type || l.subject}  ${l.stream}:${l.sequence}\n      ${l.error}`,
        );
      }
      console.log(`${letters.length} lettre(s) morte(s).`);
    }
  } else if (command === 'replay') {
    const replayed = await replayDeadLetters(nc, namespace, {
      ...(values.consumer ? { consumer: values.consumer } : {}),
      ...(seqs ? { seqs } : {}),
    });
    for (const l of replayed) console.log(`rejoué #${l.seq} → ${l.consumer} (${l.subject})`);
    console.log(`${replayed.length} événement(s) rejoué(s).`);
  } else {
    if (!seqs) {
      console.error('drop attend --seq : on ne supprime que ce que l’on a lu.');
      process.exit(2);
    }
    const jsm = await jetstreamManager(nc);
    let dropped = 0;
    for (const seq of seqs) {
      if (await jsm.streams.deleteMessage(streamName('dlq', namespace), seq, false).catch(() => false)) dropped++;
    }
    console.log(`${dropped} lettre(s) morte(s) supprimée(s).`);
  }
} finally {
  await nc.close();
}
