// `npm run events -- dlq list|replay|drop`: the operator's view of dead letters (events that a
// consumer could never handle), and the way to send them back once the cause is fixed.
import { parseArgs } from 'node:util';
import { streamName } from '@cartable/contracts';
import { listDeadLetters, replayDeadLetters } from '@cartable/service-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const usage = `Usage : npm run events -- dlq <commande> [options]

  dlq list    [--consumer NOM] [--json]         les lettres mortes, de la plus ancienne à la plus récente
  dlq replay  [--consumer NOM] [--seq N,...]    renvoie ces événements à leur consommateur (et à lui seul)
  dlq drop    --seq N,...                       supprime ces lettres mortes sans les rejouer

NATS_URL (nats://127.0.0.1:4222) et EVENT_NAMESPACE (vide) désignent le serveur et l'espace des flux.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    consumer: { type: 'string' },
    seq: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const [group, command] = positionals;
if (values.help || group !== 'dlq' || !['list', 'replay', 'drop'].includes(command ?? '')) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const seqs = values.seq
  ?.split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
if (values.seq && !seqs?.length) {
  console.error('--seq attend des numéros séparés par des virgules.');
  process.exit(2);
}

const namespace = process.env.EVENT_NAMESPACE ?? '';
const nc = await connect({ servers: (process.env.NATS_URL ?? 'nats://127.0.0.1:4222').split(','), timeout: 5000 });
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
