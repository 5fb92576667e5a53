/** Browser settings served by the gateway at /app-config.json (SPEC section 9 defaults). */
export interface AppConfig {
  inactivity_limit_ms: number;
  inactivity_warning_ms: number;
  currency: string;
}

export const DEFAULT_APP_CONFIG: AppConfig = {
  inactivity_limit_ms: 1_800_000,
  inactivity_warning_ms: 60_000,
  currency: 'XOF',
};

const positive = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;

/** Keeps the defaults for anything missing or malformed; the warning never exceeds the limit. */
export function normaliseAppConfig(raw: unknown): AppConfig {
  const data = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const limit = positive(data.inactivity_limit_ms, DEFAULT_APP_CONFIG.inactivity_limit_ms);
  const warning = Math.min(positive(data.inactivity_warning_ms, DEFAULT_APP_CONFIG.inactivity_warning_ms), limit);
  const currency = typeof data.currency === 'string' && data.currency ? data.currency : DEFAULT_APP_CONFIG.currency;
  return { inactivity_limit_ms: limit, inactivity_warning_ms: warning, currency };
}

let loading: Promise<AppConfig> | null = null;

/** Fetched once per page load; the defaults apply when the file cannot be read. */
export function loadAppConfig(): Promise<AppConfig> {
  loading ??= fetch('/app-config.json', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then((response) => (response.ok ? response.json() : null))
    .then(normaliseAppConfig, () => DEFAULT_APP_CONFIG);
  return loading;
}
