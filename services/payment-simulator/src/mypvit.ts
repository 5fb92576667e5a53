import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { answerDelayMs, payerOutcome, type SimulatorContext, sleep } from './outcomes.ts';

/**
 * MyPVit (PVit) as its merchants see it, under /mypvit (any URL code is accepted in the path):
 *
 *   POST /mypvit/v2/{code}/renew-secret   form: operationAccountCode, password → { secret, expires_in }
 *   POST /mypvit/v2/{code}/rest           X-Secret; PAYMENT (asynchronous) or GIVE_CHANGE (synchronous)
 *   GET  /mypvit/v2/{code}/status         X-Secret; ?transactionId (theirs or ours)&accountOperationCode&transactionOperation
 *
 * Only the last secret renewed is valid, and only for `secretTtlMs`: a stale one answers 401
 * AUTHENTICATION_FAILED. A merchant reference has at most 13 characters. The final status of a
 * PAYMENT is posted as JSON (unsigned) to the merchant's callback URL, which must answer
 * `{ transactionId, responseCode: 200 }`; any other answer is retried with backoff.
 */
export interface MypvitOptions {
  accountCode: string;
  password: string;
  callbackUrl?: string | undefined;
  /** How long a renewed secret is accepted (MyPVit: an hour). */
  secretTtlMs: number;
}

type TxStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'AMBIGUOUS';

interface Transaction {
  reference_id: string;
  merchant_reference_id: string;
  transaction_type: 'PAYMENT' | 'GIVE_CHANGE';
  amount: number;
  fees: number;
  operator: string;
  customer_account_number: string;
  merchant_operation_account_code: string;
  callback_url_code: string | null;
  status: TxStatus;
  message: string;
  date: string;
  settlesOnRead: boolean;
  /** When the payer's money was taken (a test measures the time to the merchant's activation). */
  paid_at?: string;
  callbacks: Array<{ at: string; status: number | null; acknowledged: boolean; error: string | null }>;
}

const restSchema = z.object({
  agent: z.string().max(50).optional(),
  amount: z.number().int().positive(),
  product: z.string().max(50).optional(),
  reference: z.string().min(1).max(13),
  service: z.string().optional(),
  callback_url_code: z.string().max(12).optional(),
  customer_account_number: z.string().min(8).max(20),
  merchant_operation_account_code: z.string().min(1),
  transaction_type: z.enum(['PAYMENT', 'GIVE_CHANGE']),
  owner_charge: z.enum(['MERCHANT', 'CUSTOMER']).optional(),
  owner_charge_operator: z.string().optional(),
  operator_code: z.enum(['AIRTEL_MONEY', 'MOOV_MONEY']),
  free_info: z.string().max(50).optional(),
});

const failure = (status: number, error: string, message: string) => ({
  date: new Date().toISOString(),
  status_code: status,
  error,
  message,
});

export function mountMypvit(app: FastifyInstance, ctx: SimulatorContext, options: MypvitOptions) {
  const transactions = new Map<string, Transaction>();
  let secret: { value: string; expiresAt: number } | null = null;
  const stats = { renewals: 0, rejectedSecrets: 0 };

  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };

  const secretValid = (header: string | string[] | undefined) => {
    const given = typeof header === 'string' ? header : '';
    const ok = secret !== null && secret.expiresAt > Date.now() && same(given, secret.value);
    if (!ok) stats.rejectedSecrets++;
    return ok;
  };

  const find = (id: string, operation: string | undefined) =>
    [...transactions.values()].find(
      (t) =>
        (t.reference_id === id || t.merchant_reference_id === id) && (!operation || t.transaction_type === operation),
    );

  const view = (t: Transaction) => {
    const { settlesOnRead: _, callbacks: __, callback_url_code: ___, ...visible } = t;
    return visible;
  };

  /** The final status, posted until the merchant acknowledges it in MyPVit's shape. */
  async function notify(t: Transaction, attempt = 1): Promise<void> {
    if (!options.callbackUrl) return;
    const body = JSON.stringify({
      transactionId: t.reference_id,
      merchantReferenceId: t.merchant_reference_id,
      status: t.status,
      amount: t.amount,
      customerID: t.customer_account_number,
      fees: t.fees,
      chargeOwner: 'CUSTOMER',
      transactionOperation: t.transaction_type,
      operator: t.operator,
      code: t.status === 'SUCCESS' ? 200 : 400,
    });
    let status: number | null = null;
    let acknowledged = false;
    let error: string | null = null;
    try {
      const res = await fetch(options.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      const ack = (await res.json().catch(() => null)) as { transactionId?: unknown; responseCode?: unknown } | null;
      acknowledged = res.ok && ack?.transactionId === t.reference_id && Number(ack?.responseCode) === 200;
    } catch (err) {
      error = (err as Error).message;
    }
    t.callbacks.push({ at: new Date().toISOString(), status, acknowledged, error });
    if (!acknowledged && attempt < ctx.maxAttempts) {
      ctx.later(ctx.retryBaseMs * 2 ** (attempt - 1), () => void notify(t, attempt + 1));
    }
  }

  function settle(t: Transaction, status: 'SUCCESS' | 'FAILED', message: string) {
    t.status = status;
    if (status === 'SUCCESS') t.paid_at = new Date().toISOString();
    t.message = message;
    void notify(t);
  }

  function answer(t: Transaction) {
    if (t.status !== 'PENDING') return;
    switch (payerOutcome(t.customer_account_number)) {
      case 'never':
        return;
      case 'failed':
        return settle(t, 'FAILED', 'Solde insuffisant');
      case 'expires':
        return settle(t, 'FAILED', 'Délai de confirmation dépassé');
      case 'ambiguous':
        t.status = 'AMBIGUOUS';
        t.message = 'Réponse de l’opérateur inconnue';
        t.settlesOnRead = true;
        return;
      default:
        return settle(t, 'SUCCESS', 'Paiement effectué');
    }
  }

  app.post<{ Params: { code: string }; Querystring: Record<string, string | undefined> }>(
    '/mypvit/v2/:code/renew-secret',
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const account = String(body.operationAccountCode ?? request.query.operationAccountCode ?? '');
      const password = String(body.password ?? request.query.password ?? '');
      if (!same(account, options.accountCode) || !same(password, options.password)) {
        return reply.code(401).send(failure(401, 'AUTHENTICATION_FAILED', 'Compte ou mot de passe invalide.'));
      }
      // A new secret makes the previous one obsolete at once.
      secret = { value: `sk_test_${randomBytes(18).toString('hex')}`, expiresAt: Date.now() + options.secretTtlMs };
      stats.renewals++;
      return {
        operation_account_code: options.accountCode,
        secret: secret.value,
        expires_in: Math.max(1, Math.ceil(options.secretTtlMs / 1000)),
      };
    },
  );

  app.post('/mypvit/v2/:code/rest', async (request, reply) => {
    if (!secretValid(request.headers['x-secret'])) {
      return reply.code(401).send(failure(401, 'AUTHENTICATION_FAILED', 'Clé secrète expirée ou invalide.'));
    }
    const parsed = restSchema.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({
        ...failure(400, 'BAD_REQUEST', 'Requête invalide.'),
        messages: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      });
    }
    const data = parsed.data;
    if (data.merchant_operation_account_code !== options.accountCode) {
      return reply.code(400).send(failure(400, 'ACCOUNT_NOT_FOUND', 'Compte d’opération inconnu.'));
    }
    if (find(data.reference, data.transaction_type)) {
      return reply.code(400).send(failure(400, 'DUPLICATE_REFERENCE', 'Référence déjà utilisée.'));
    }
    const t: Transaction = {
      reference_id: `${data.transaction_type === 'PAYMENT' ? 'PAY' : 'GC'}${Date.now().toString().slice(-9)}${randomInt(100, 999)}`,
      merchant_reference_id: data.reference,
      transaction_type: data.transaction_type,
      amount: data.amount,
      fees: 0,
      operator: data.operator_code,
      customer_account_number: data.customer_account_number,
      merchant_operation_account_code: data.merchant_operation_account_code,
      callback_url_code: data.callback_url_code ?? null,
      status: 'PENDING',
      message: 'Demande en cours de traitement.',
      date: new Date().toISOString(),
      settlesOnRead: false,
      callbacks: [],
    };
    transactions.set(t.reference_id, t);
    const answerOf = () => ({
      status: t.status,
      status_code: '200',
      operator: t.operator,
      reference_id: t.reference_id,
      merchant_reference_id: t.merchant_reference_id,
      merchant_operation_account_code: t.merchant_operation_account_code,
      message: t.message,
    });
    if (t.transaction_type === 'GIVE_CHANGE') {
      // Synchronous: the answer carries the final status, and no callback follows.
      const refused = payerOutcome(t.customer_account_number) === 'failed';
      t.status = refused ? 'FAILED' : 'SUCCESS';
      t.message = refused ? 'Compte du bénéficiaire introuvable' : 'Monnaie rendue';
      return answerOf();
    }
    ctx.later(answerDelayMs(t.customer_account_number, ctx), () => answer(t));
    if (payerOutcome(t.customer_account_number) === 'slow') await sleep(ctx.slowMs);
    return answerOf();
  });

  app.get<{ Querystring: { transactionId?: string; accountOperationCode?: string; transactionOperation?: string } }>(
    '/mypvit/v2/:code/status',
    async (request, reply) => {
      if (!secretValid(request.headers['x-secret'])) {
        return reply.code(401).send(failure(401, 'AUTHENTICATION_FAILED', 'Clé secrète expirée ou invalide.'));
      }
      const { transactionId, accountOperationCode, transactionOperation } = request.query;
      const t =
        accountOperationCode === options.accountCode ? find(transactionId ?? '', transactionOperation) : undefined;
      if (!t) return reply.code(404).send(failure(404, 'TRANSACTION_NOT_FOUND', 'Transaction introuvable.'));
      const shown = view(t);
      if (t.settlesOnRead) {
        t.settlesOnRead = false;
        settle(t, 'SUCCESS', 'Paiement effectué');
      }
      return shown;
    },
  );

  /** Test controls (no auth: never deployed): the callback again (now or later), the secrets' counts. */
  app.post<{ Params: { id: string }; Querystring: { delay_ms?: string } }>(
    '/mypvit/control/transactions/:id/notify',
    async (request, reply) => {
      const t = find(request.params.id, undefined);
      if (!t) return reply.code(404).send(failure(404, 'TRANSACTION_NOT_FOUND', 'Transaction introuvable.'));
      const delay = Number(request.query.delay_ms ?? 0);
      if (delay > 0) {
        ctx.later(delay, () => void notify(t, ctx.maxAttempts));
        return reply.code(202).send({ callbacks: t.callbacks });
      }
      await notify(t, ctx.maxAttempts);
      return { callbacks: t.callbacks };
    },
  );
  app.get<{ Params: { id: string } }>('/mypvit/control/transactions/:id', async (request, reply) => {
    const t = find(request.params.id, undefined);
    if (!t) return reply.code(404).send(failure(404, 'TRANSACTION_NOT_FOUND', 'Transaction introuvable.'));
    return { ...t };
  });
  app.get('/mypvit/control/stats', async () => ({ ...stats }));
}
