import { NEVER_OPENED_OFFLINE, QUEUED_HEADER, QUEUED_MESSAGE } from '../offline/names';
import { noteApiAnswer } from '../offline/offline-state';
import { sessionStore } from '../session/store';
import { API_BASE, apiUrl, type QueryValues } from './url';

export { API_BASE };

export const NETWORK_ERROR_MESSAGE = 'Erreur de connexion. Vérifiez votre connexion internet et réessayez.';
export const GENERIC_ERROR_MESSAGE = 'Une erreur est survenue. Veuillez réessayer.';
/** A write tried without any network (the browser knows it is offline). */
export const OFFLINE_WRITE_MESSAGE = 'Pas de connexion : rien n’a été envoyé. Réessayez une fois connecté.';

/** Field errors as the API sends them: `{ field: ["message", ...] }` (a single string is accepted). */
export type FieldErrors = Record<string, string[]>;

/**
 * Error thrown by the API client. `message` is French: the server's `message` when it sent one,
 * otherwise a generic fallback. `status` is 0 when the server could not be reached.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly errors: FieldErrors;
  /** The parsed JSON body (or null), for payload fields such as `email_verified`. */
  readonly body: unknown;
  /** True when `message` comes from the server rather than from a fallback. */
  readonly hasServerMessage: boolean;

  constructor(
    status: number,
    message: string,
    options: { errors?: FieldErrors; body?: unknown; hasServerMessage?: boolean } = {},
  ) {
    super(message);
    this.status = status;
    this.errors = options.errors ?? {};
    this.body = options.body ?? null;
    this.hasServerMessage = options.hasServerMessage ?? false;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  /**
   * The write was kept on the phone to be sent when the network returns (the service worker's
   * queue): not done yet, not lost either. A screen that shows the state it wrote keeps it.
   */
  get isQueued(): boolean {
    return this.status === 202;
  }

  /** First message for a field, if the server reported one. */
  fieldError(field: string): string | undefined {
    return this.errors[field]?.[0];
  }
}

/**
 * A read by id that can never succeed, however often it is tried: the thing does not exist
 * (404), or the id in the address cannot name one (400, 422: a link typed or cut by hand). The
 * screen says « introuvable » with a way back, not « Réessayer ».
 */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 422 || error.status === 400);
}

/**
 * The message to show for a failed call: the server's message when there is one, the network
 * message when the server was unreachable, otherwise the screen's own fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.hasServerMessage || error.isNetworkError) return error.message;
  }
  return fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialisable body, or FormData for multipart uploads. */
  body?: unknown;
  /** Query parameters; undefined, null and empty values are skipped. */
  query?: QueryValues;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Sent as Idempotency-Key: a creating call retried with the same key has one effect. */
  idempotencyKey?: string;
  /** `blob` for a file the server writes (a CSV export): the answer's body as it came. */
  responseType?: 'json' | 'blob';
}

function normaliseErrors(raw: unknown): FieldErrors {
  if (!raw || typeof raw !== 'object') return {};
  const errors: FieldErrors = {};
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    if (Array.isArray(value)) errors[field] = value.map(String);
    else if (typeof value === 'string') errors[field] = [value];
  }
  return errors;
}

function isAuthScreen(): boolean {
  const { pathname } = window.location;
  return pathname.startsWith('/login') || pathname.startsWith('/register');
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Calls the API and returns the parsed JSON body; throws ApiError on any failure. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = sessionStore.getState().token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  const url = apiUrl(path, query);
  try {
    response = await fetch(url, {
      method,
      headers,
      body: payload,
      signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ApiError(
      0,
      offline ? (method === 'GET' ? NEVER_OPENED_OFFLINE : OFFLINE_WRITE_MESSAGE) : NETWORK_ERROR_MESSAGE,
    );
  }
  if (method === 'GET') noteApiAnswer(url, response);
  // Kept by the service worker for later: the caller's success would claim it was done.
  if (response.headers.get(QUEUED_HEADER)) throw new ApiError(202, QUEUED_MESSAGE, { hasServerMessage: true });

  if (response.ok && options.responseType === 'blob') return (await response.blob()) as T;
  const data = await readBody(response);
  if (response.ok) return data as T;

  if ((response.status === 401 || response.status === 403) && !isAuthScreen()) {
    console.warn('Token expiré ou invalide détecté');
  }
  const record = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const serverMessage = typeof record.message === 'string' && record.message ? record.message : null;
  throw new ApiError(response.status, serverMessage ?? GENERIC_ERROR_MESSAGE, {
    errors: normaliseErrors(record.errors),
    body: data,
    hasServerMessage: serverMessage !== null,
  });
}

type Options = Omit<RequestOptions, 'method' | 'body'>;

/** Shorthands: `api.get<{ user: User }>('/user')`, `api.post('/login', { email, password })`. */
export const api = {
  get: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: 'DELETE', body }),
};
