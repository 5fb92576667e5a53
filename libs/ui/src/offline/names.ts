/**
 * What the service worker (frontends/shell/sw) and the pages both name: the caches and the
 * headers by which a page learns that an answer came from the phone rather than the network.
 * No import: the service worker's bundle takes this file alone.
 */

/** The API's answers a member has read (their own data): emptied when a member logs in or out. */
export const API_CACHE = 'cartable-api';
/** The pages' HTML, the remotes' scripts and the photos: the same for everyone. */
export const PAGES_CACHE = 'cartable-pages';
export const SCRIPTS_CACHE = 'cartable-scripts';
export const PHOTOS_CACHE = 'cartable-photos';

/** Set by the service worker on an answer it stores: when it was received (ISO 8601). */
export const RECEIVED_AT_HEADER = 'x-cartable-received-at';
/** Set on an answer served from the phone because the network did not answer. */
export const OFFLINE_HEADER = 'x-cartable-offline';

/** The message a page sends the waiting service worker to take over (« Mettre à jour »). */
export const SKIP_WAITING = 'SKIP_WAITING';
/**
 * The message a page sends at logout or when another member signs in: the worker empties the
 * API's cache and stores no answer to a read started before (one may still be on its way).
 */
export const FORGET_MEMBER = 'FORGET_MEMBER';

/** Under a « Pas de connexion » title: a page whose code or data this phone never loaded. */
export const NEVER_OPENED =
  'Cette page n’a pas encore été ouverte sur ce téléphone. Elle s’affichera une fois la connexion revenue.';
/** Said by the service worker when a page's data was never read on this phone and the network fails. */
export const NEVER_OPENED_OFFLINE = `Pas de connexion : ${NEVER_OPENED.charAt(0).toLowerCase()}${NEVER_OPENED.slice(1)}`;

// ── writes made offline (the worker's queue) ──

/** Set on the worker's 202 answer to a write it keeps for later. */
export const QUEUED_HEADER = 'x-cartable-queued';
export const QUEUED_MESSAGE =
  'Hors ligne : c’est gardé sur ce téléphone et partira au retour de la connexion (« En attente » pour l’annuler).';

/** Page → worker: the writes waiting (answered on the message's port), one to cancel, replay now. */
export const PENDING_WRITES = 'PENDING_WRITES';
export const CANCEL_WRITE = 'CANCEL_WRITE';
export const REPLAY_WRITES = 'REPLAY_WRITES';
/** Worker → pages: the queue changed; a write was applied, or refused by the server. */
export const WRITES_CHANGED = 'WRITES_CHANGED';
export const WRITE_SENT = 'WRITE_SENT';
export const WRITE_REFUSED = 'WRITE_REFUSED';

/** A write waiting on the phone, as the page lists it. */
export interface PendingWrite {
  id: string;
  /** « Message : « Bonjour, … » », « Ajout aux favoris »… */
  label: string;
  queuedAt: number;
}
