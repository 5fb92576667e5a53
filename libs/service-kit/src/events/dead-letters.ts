import { streamName, subjectFor } from '@cartable/contracts';
import { type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type MsgHdrs, type NatsConnection, headers as natsHeaders } from '@nats-io/nats-core';
import { ensureStream } from './jetstream.ts';

/**
 * Dead letters: a copy of an event that one consumer can never handle, published to
 * `dlq.<consumer>.<type>` in the DLQ stream with where it came from and why it failed, so that
 * an operator can read it and, once the cause is fixed, replay it to that consumer only.
 */
export const deadLetterSubject = (consumer: string, type: string, namespace: string) =>
  subjectFor(`dlq.${consumer}.${type}`, namespace);

/** Headers of a dead letter (NATS headers: ASCII, one line each). */
export const DLQ_HEADERS = {
  subject: 'Cartable-Original-Subject',
  stream: 'Cartable-Original-Stream',
  sequence: 'Cartable-Original-Sequence',
  consumer: 'Cartable-Consumer',
  error: 'Cartable-Error',
  failedAt: 'Cartable-Failed-At',
} as const;

/** Set on a replayed event: only the named consumer handles it, every other one skips it. */
export const REPLAY_FOR_HEADER = 'Cartable-Replay-For';

export interface DeadLetterOrigin {
  consumer: string;
  type: string;
  subject: string;
  stream: string;
  sequence: number;
  error: string;
}

/** Header values cannot hold line breaks, and a stack trace has no place there. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').slice(0, 500);

/**
 * Publishes the dead letter and waits for JetStream's acknowledgement; the caller acks the
 * original only afterwards (terminating it would be redelivered by NATS 2.9). The message id is
 * unique across streams and consumers, so two streams' letters with one sequence both stay.
 */
export async function publishDeadLetter(
  js: JetStreamClient,
  namespace: string,
  data: Uint8Array,
  origin: DeadLetterOrigin,
) {
  const h = natsHeaders();
  h.set(DLQ_HEADERS.subject, origin.subject);
  h.set(DLQ_HEADERS.stream, origin.stream);
  h.set(DLQ_HEADERS.sequence, String(origin.sequence));
  h.set(DLQ_HEADERS.consumer, origin.consumer);
  h.set(DLQ_HEADERS.error, oneLine(origin.error) || 'erreur inconnue');
  h.set(DLQ_HEADERS.failedAt, new Date().toISOString());
  await js.publish(deadLetterSubject(origin.consumer, origin.type, namespace), data, {
    msgID: `${origin.stream}:${origin.sequence}:${origin.consumer}`,
    headers: h,
  });
}

export interface DeadLetter {
  /** Sequence in the DLQ stream: what `replay` and `drop` take. */
  seq: number;
  consumer: string;
  subject: string;
  stream: string;
  sequence: number;
  error: string;
  failedAt: string;
  data: string;
}

function read(h: MsgHdrs | undefined, name: string) {
  return h?.get(name) ?? '';
}

/** Every dead letter still in the DLQ stream, oldest first (optionally of one consumer). */
export async function listDeadLetters(
  nc: NatsConnection,
  namespace: string,
  { consumer }: { consumer?: string } = {},
): Promise<DeadLetter[]> {
  const jsm = await jetstreamManager(nc);
  const stream = await ensureStream(jsm, 'dlq', namespace);
  const info = await jsm.streams.info(stream);
  const letters: DeadLetter[] = [];
  if (info.state.messages === 0) return letters;
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (!msg) continue; // deleted after a replay
    const letter: DeadLetter = {
      seq,
      consumer: read(msg.header, DLQ_HEADERS.consumer),
      subject: read(msg.header, DLQ_HEADERS.subject),
      stream: read(msg.header, DLQ_HEADERS.stream),
      sequence: Number(read(msg.header, DLQ_HEADERS.sequence)),
      error: read(msg.header, DLQ_HEADERS.error),
      failedAt: read(msg.header, DLQ_HEADERS.failedAt),
      data: msg.string(),
    };
    if (!consumer || letter.consumer === consumer) letters.push(letter);
  }
  return letters;
}

/**
 * Sends dead letters back to their original subject for their consumer only, with a fresh
 * message id (the stream's duplicate window would drop the original one), then removes them
 * from the DLQ. A letter that fails again comes back as a new dead letter.
 */
export async function replayDeadLetters(
  nc: NatsConnection,
  namespace: string,
  selection: { consumer?: string; seqs?: number[] } = {},
): Promise<DeadLetter[]> {
  const jsm: JetStreamManager = await jetstreamManager(nc);
  const js = jetstream(nc);
  const stream = streamName('dlq', namespace);
  const letters = (
    await listDeadLetters(nc, namespace, selection.consumer ? { consumer: selection.consumer } : {})
  ).filter((l) => !selection.seqs || selection.seqs.includes(l.seq));
  const replayed: DeadLetter[] = [];
  for (const letter of letters) {
    if (!letter.subject || !letter.consumer) continue;
    const h = natsHeaders();
    h.set(REPLAY_FOR_HEADER, letter.consumer);
    await js.publish(letter.subject, letter.data, { msgID: `replay:${stream}:${letter.seq}`, headers: h });
    await jsm.streams.deleteMessage(stream, letter.seq, false);
    replayed.push(letter);
  }
  return replayed;
}
