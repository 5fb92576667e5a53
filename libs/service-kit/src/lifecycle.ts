import closeWithGrace from 'close-with-grace';
import type { App } from './app.ts';
import { ConfigError } from './config.ts';
import { serveMetrics } from './metrics.ts';

export type Closer = () => Promise<unknown>;

/**
 * Runs a service's start-up; a configuration error prints its message (naming the faulty
 * variables) and exits with code 1 instead of a stack trace.
 */
export async function bootstrap(start: () => Promise<void>) {
  try {
    await start();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
    } else {
      console.error('Échec du démarrage :', err);
    }
    process.exit(1);
  }
}

/**
 * Listens (GET /metrics on `metricsPort`, METRICS_PORT), then on SIGINT/SIGTERM: /ready turns
 * false, HTTP drains, then every closer runs in order (consumers, relay, NATS drain, Redis,
 * database pool), the metrics last.
 */
export async function serve(
  app: App,
  { port, host, metricsPort }: { port: number; host: string; metricsPort: number },
  closers: Closer[] = [],
) {
  const metrics = await serveMetrics(app.metrics, { port: metricsPort, host });
  app.log.info({ port: metrics.port }, 'metrics listening');
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    app.markShuttingDown();
    await app.close();
    for (const close of [...closers, metrics.close]) {
      await close().catch((e: unknown) => app.log.warn({ err: e }, 'error while closing'));
    }
  });
  await app.listen({ port, host });
}
