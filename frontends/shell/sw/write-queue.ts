/// <reference lib="webworker" />
/**
 * Writes made without network (a new listing with its photos, a message, a comment, a favourite,
 * the books ticked on « Ma liste ») are kept on the phone (Workbox's background-sync queue, in IndexedDB) and sent once the
 * connection returns: on the browser's background sync where it has one, else when a page says
 * the network is back or when the worker starts. Each is sent once: a listing, a message or a
 * comment carries its Idempotency-Key (the server applies a key once), a favourite or the ticked books
 * replace a state (sending twice changes nothing), and a later write of the same state replaces a
 * waiting one.
 */
import {
  CANCEL_WRITE,
  PENDING_WRITES,
  type PendingWrite,
  QUEUED_HEADER,
  QUEUED_MESSAGE,
  REPLAY_WRITES,
  WRITE_REFUSED,
  WRITE_SENT,
  WRITES_CHANGED,
} from '@cartable/ui/offline-names';
import { Queue } from 'workbox-background-sync';
import { registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

/** An entry of the queue (the package does not export its type). */
type QueueEntry = NonNullable<Awaited<ReturnType<Queue['shiftRequest']>>>;

interface Queueable {
  pattern: RegExp;
  methods: string[];
  /** A write that creates something must carry its Idempotency-Key to be kept. */
  needsKey: boolean;
  label: (method: string, body: Record<string, unknown>) => string;
}

const preview = (text: unknown) => {
  const words = typeof text === 'string' ? text.trim().replace(/\s+/g, ' ') : '';
  return words.length > 40 ? `${words.slice(0, 39)}…` : words;
};

const QUEUEABLE: Queueable[] = [
  {
    // A new listing with its photos (multipart; its title names it in the list).
    pattern: /^\/api\/books$/,
    methods: ['POST'],
    needsKey: true,
    label: (_, body) => `Annonce : « ${preview(body.title)} »`,
  },
  {
    pattern: /^\/api\/messages$/,
    methods: ['POST'],
    needsKey: true,
    label: (_, body) => `Message : « ${preview(body.content)} »`,
  },
  {
    pattern: /^\/api\/books\/\d+\/comments$/,
    methods: ['POST'],
    needsKey: true,
    label: (_, body) => `Commentaire : « ${preview(body.content)} »`,
  },
  {
    pattern: /^\/api\/favourites\/\d+$/,
    methods: ['PUT', 'DELETE'],
    needsKey: false,
    label: (method) => (method === 'PUT' ? 'Ajout aux favoris' : 'Retrait des favoris'),
  },
  {
    pattern: /^\/api\/my-class-lists\/\d+$/,
    methods: ['PUT'],
    needsKey: false,
    label: () => 'Manuels cochés de « Ma liste »',
  },
];

/** A week: past it, a waiting write is dropped (Workbox counts minutes). */
const queue = new Queue('cartable-writes', { maxRetentionTime: 7 * 24 * 60, onSync: () => replay() });

async function tellPages(message: Record<string, unknown>) {
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage(message);
}

const labelOf = (entry: QueueEntry) => String((entry.metadata as { label?: string } | undefined)?.label ?? 'Un envoi');
const idOf = (entry: QueueEntry) => String((entry.metadata as { id?: string } | undefined)?.id ?? '');

async function pending(): Promise<PendingWrite[]> {
  return (await queue.getAll()).map((entry) => ({
    id: idOf(entry),
    label: labelOf(entry),
    queuedAt: entry.timestamp ?? 0,
  }));
}

/** Keeps the entries that pass, in their order (the queue has no removal of one entry). */
async function keepOnly(keep: (entry: QueueEntry) => boolean) {
  const all: QueueEntry[] = [];
  for (let entry = await queue.shiftRequest(); entry; entry = await queue.shiftRequest()) all.push(entry);
  for (const entry of all.filter(keep)) await queue.pushRequest(entry);
}

/**
 * The member's current token, as the last page that asked for a replay holds it: a write kept
 * longer than a session (a phone offline for days) is sent again with it after a 401. The token
 * it was written with goes first, so that the server knows a key it already applied.
 */
let currentToken: string | null = null;

async function send(request: Request): Promise<Response> {
  const response = await fetch(request.clone());
  const renewed = currentToken ? `Bearer ${currentToken}` : null;
  if (response.status !== 401 || !renewed || request.headers.get('authorization') === renewed) return response;
  const headers = new Headers(request.headers);
  headers.set('authorization', renewed);
  return fetch(new Request(request.clone(), { headers }));
}

let replaying: Promise<void> | null = null;
/** Sends the waiting writes in order; stops at the first the network does not take. */
function replay(): Promise<void> {
  replaying ??= (async () => {
    try {
      for (let entry = await queue.shiftRequest(); entry; entry = await queue.shiftRequest()) {
        let response: Response;
        try {
          response = await send(entry.request);
        } catch (error) {
          await queue.unshiftRequest(entry);
          throw error;
        }
        if (response.status >= 500 || response.status === 429) {
          await queue.unshiftRequest(entry);
          throw new Error(`envoi différé : ${response.status}`);
        }
        if (response.ok) {
          await tellPages({ type: WRITE_SENT, label: labelOf(entry) });
        } else {
          // Refused for good (an expired session, a listing gone): said to the member, not retried.
          const body = (await response.json().catch(() => ({}))) as { message?: string };
          await tellPages({ type: WRITE_REFUSED, label: labelOf(entry), message: body.message ?? '' });
        }
        await tellPages({ type: WRITES_CHANGED });
      }
    } finally {
      replaying = null;
    }
  })();
  return replaying;
}

/** The write's fields, for its label: a JSON body, or a form's text fields. */
async function fieldsOf(request: Request): Promise<Record<string, unknown>> {
  if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    const form = await request.formData().catch(() => null);
    return form ? { title: form.get('title') } : {};
  }
  return (await request.json().catch(() => ({}))) as Record<string, unknown>;
}

async function keep(request: Request, rule: Queueable): Promise<Response> {
  const body = await fieldsOf(request.clone());
  const url = request.url;
  const key = request.headers.get('idempotency-key');
  // The same state written again, or the same message sent again: only the last one is kept.
  if (!rule.needsKey) await keepOnly((entry) => entry.request.url !== url);
  else await keepOnly((entry) => entry.request.headers.get('idempotency-key') !== key);
  await queue.pushRequest({
    request,
    metadata: { id: crypto.randomUUID(), label: rule.label(request.method, body) },
  });
  await tellPages({ type: WRITES_CHANGED });
  return new Response(JSON.stringify({ message: QUEUED_MESSAGE, queued: true }), {
    status: 202,
    headers: { 'content-type': 'application/json; charset=utf-8', [QUEUED_HEADER]: '1' },
  });
}

export function queueOfflineWrites() {
  for (const rule of QUEUEABLE) {
    for (const method of rule.methods) {
      registerRoute(
        ({ url }) => url.origin === self.location.origin && rule.pattern.test(url.pathname),
        async ({ request }) => {
          const copy = request.clone();
          try {
            return await fetch(request);
          } catch (error) {
            if (rule.needsKey && !copy.headers.get('idempotency-key')) throw error;
            return keep(copy, rule);
          }
        },
        method as 'POST' | 'PUT' | 'DELETE',
      );
    }
  }

  self.addEventListener('message', (event) => {
    const data = event.data as { type?: string; id?: string; token?: string | null } | null;
    if (data?.type === PENDING_WRITES) {
      event.waitUntil(pending().then((writes) => event.ports[0]?.postMessage(writes)));
    } else if (data?.type === CANCEL_WRITE && data.id) {
      const id = data.id;
      event.waitUntil(keepOnly((entry) => idOf(entry) !== id).then(() => tellPages({ type: WRITES_CHANGED })));
    } else if (data?.type === REPLAY_WRITES) {
      if (typeof data.token === 'string') currentToken = data.token;
      event.waitUntil(replay().catch(() => undefined));
    }
  });
  // Browsers without background sync: what waited is sent when the worker starts again (with the
  // tokens it was written with; a page's replay brings the current one).
  void replay().catch(() => undefined);
}

/** Said of each write dropped with its session (the page adds the write's label). */
const WRITES_DROPPED_AT_LOGOUT =
  'La session a pris fin avant le retour de la connexion : reconnectez-vous et refaites-le.';

/** At logout: the waiting writes carry the member's token and words; they leave the phone. */
export async function forgetWaitingWrites(): Promise<void> {
  const dropped = await queue.getAll();
  await keepOnly(() => false);
  // A session that ended by itself (an expired token) drops them too: the member is told which.
  for (const entry of dropped) {
    await tellPages({ type: WRITE_REFUSED, label: labelOf(entry), message: WRITES_DROPPED_AT_LOGOUT });
  }
  await tellPages({ type: WRITES_CHANGED });
}
