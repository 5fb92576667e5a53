import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, expect, it } from 'vitest';

/**
 * The answers and their contracts on a real stack with the demo catalogue: every GET that the
 * gateway's merged OpenAPI document lists (/api/docs/openapi.json) is called as a visitor, two
 * members and the administrator, with real ids. A response schema of libs/contracts that refused
 * what a service sends would answer 500 here.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});

it('answers every documented GET, for everyone, without a server error', async () => {
  const admin = (await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } }))
    .body.access_token as string;
  const seller = await verifiedMember(stack, 'sweepa');
  const buyer = await verifiedMember(stack, 'sweepb');
  const bookId = await listBook(stack, seller.token, 'Maths 3e sweep');
  // The listing reaches messaging by an event: until then a message about it is refused (422).
  const sent = await eventually(async () => {
    const res = await call(`${stack.api}/messages`, {
      body: { receiver_id: seller.id, book_id: bookId, content: 'Bonjour' },
      token: buyer.token,
    });
    return res.status === 201 ? res : undefined;
  });
  // So does it reach moderation, which keeps the comments.
  const comment = await eventually(async () => {
    const res = await call(`${stack.api}/books/${bookId}/comments`, {
      body: { content: 'Toujours dispo ?' },
      token: buyer.token,
    });
    return res.status === 201 ? res : undefined;
  });
  const reply = await call(`${stack.api}/books/${bookId}/comments`, {
    body: { content: 'Oui', parent_id: comment.body.data.id },
    token: seller.token,
  });
  expect(reply.status).toBe(201);
  const captcha = await call(`${stack.api}/contact/captcha`);
  const question = /(\d+) ([+−×]) (\d+)/.exec(captcha.body.question as string)!;
  const [a, b] = [Number(question[1]), Number(question[3])];
  const answer = question[2] === '+' ? a + b : question[2] === '−' ? a - b : a * b;
  const contact = await call(`${stack.api}/contact`, {
    body: {
      name: 'Awa',
      email: 'awa@example.ga',
      subject: 'Question',
      message: 'Bonjour',
      captcha_id: captcha.body.captcha_id,
      captcha_answer: answer,
    },
  });
  expect(contact.status).toBe(201);
  const contacts = await call(`${stack.api}/admin/contacts`, { token: admin });
  const category = (await call(`${stack.api}/categories/leaves`)).body.categories[0].id;
  const doc = (await call(`${stack.api}/docs/openapi.json`)).body;
  const params: Record<string, string> = {
    id: String(bookId),
    bookId: String(bookId),
    userId: seller.id,
    commentId: comment.body.data.id,
  };
  const failures: string[] = [];
  let n = 0;
  for (const path of Object.keys(doc.paths)) {
    if (!doc.paths[path].get) continue;
    let url = path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? '1');
    if (path.startsWith('/api/categories/{id}')) url = url.replace(String(bookId), String(category));
    if (path.startsWith('/api/cities/{id}') || path.startsWith('/api/locations/cities/{id}'))
      url = url.replace(String(bookId), '1');
    if (path.startsWith('/api/countries/{id}') || path.startsWith('/api/locations/countries/{id}'))
      url = url.replace(String(bookId), '266');
    if (path.startsWith('/api/messages/{id}')) url = url.replace(String(bookId), sent.body.data.id);
    if (path.startsWith('/api/admin/contacts/{id}'))
      url = url.replace(String(bookId), contacts.body.data[0]?.id ?? '1');
    if (path.startsWith('/api/users/{userId}')) url = url.replace('/{userId}', `/${seller.id}`);
    if (path === '/api/locations/cities/search') url += '?q=libre';
    if (path === '/api/users/profile/books') url += `?user_id=${seller.id}`;
    for (const token of [undefined, buyer.token, seller.token, admin]) {
      const res = await probe(`${stack.url('gateway')}${url}`, token);
      n++;
      if (res.status >= 500) failures.push(`${res.status} ${url} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
  }
  expect(n).toBeGreaterThan(150);
  expect(failures).toEqual([]);
}, 180_000);

/**
 * A GET as `call` makes it, except that a live stream (GET /api/messages/stream never ends by
 * itself) is answered by its opening: status and headers, then the connection is closed.
 */
async function probe(url: string, token: string | undefined) {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: abort.signal,
  });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    abort.abort();
    return { status: res.status, body: '(flux)' };
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}
