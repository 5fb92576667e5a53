import { randomBytes } from 'node:crypto';
import type { TestStack } from './test-stack.ts';
import { call, eventually } from './test-stack.ts';

/**
 * Registers a member through the API, follows the e-mailed link, logs in; returns their token and
 * the user the login answered. Named « Parent <n> » unless a name is given; the e-mail address and
 * the username carry a random tag, so that files sharing a stack never meet each other's members.
 */
export async function verifiedMember(stack: TestStack, n: string, options: { name?: string } = {}) {
  const tag = randomBytes(3).toString('hex');
  const email = `${n}.${tag}@example.ga`;
  const username = `${`parent_${n}`.slice(0, 13)}_${tag}`;
  const name = options.name ?? `Parent ${n}`;
  await call(`${stack.api}/register`, {
    body: {
      name,
      email,
      username,
      password: 'Cartable1a',
      password_confirmation: 'Cartable1a',
      country_id: 266,
      city_id: 1,
    },
  });
  const mail = await stack.mail.waitFor(email, { subject: 'Confirmez' });
  const url = new URL(/http:\/\/\S+\/verify-email\?\S+/.exec(mail.text ?? '')?.[0] ?? '');
  await call(`${stack.api}/verify-email`, { body: { token: url.searchParams.get('token'), email } });
  const login = await call(`${stack.api}/login`, { body: { email, password: 'Cartable1a' } });
  const user = login.body.user as { id: string; name: string } & Record<string, unknown>;
  return { email, username, name, token: login.body.access_token as string, id: user.id, user };
}

/** Posts a listing through the API (multipart, these fields, no photo); returns its id. */
export async function postListing(stack: TestStack, token: string, fields: Record<string, string>) {
  const boundary = '----cartable-test';
  const body = `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}--${boundary}--\r\n`;
  const res = await fetch(`${stack.api}/books`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  if (res.status !== 201) throw new Error(`listing failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { book: { id: number } }).book.id;
}

/** Lists a book through the API (multipart, no photo) in Libreville; returns its id. */
export async function listBook(stack: TestStack, token: string, title: string) {
  const city = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
  const category = (await call(`${stack.api}/categories/leaves`)).body.categories[0].id;
  return postListing(stack, token, {
    title,
    author: 'IPN',
    condition: 'bon',
    price: '4000',
    city_id: String(city),
    category_ids: String(category),
  });
}

/**
 * Sends the first message about a listing just posted. Messaging learns of a listing by an
 * event, so until it has, it answers 422 (« annonce introuvable »): asked again until it knows
 * the listing, as a person would try again. Any other answer is returned as it came.
 */
export async function firstMessage(
  stack: TestStack,
  token: string,
  body: { receiver_id: string; book_id: number; content: string; send_email_copy?: boolean },
) {
  return eventually(async () => {
    const res = await call(`${stack.api}/messages`, { token, body });
    return res.status === 422 ? undefined : res;
  }, 20_000);
}
