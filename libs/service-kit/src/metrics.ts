import { createServer } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { eventRegistry } from './events/event-metrics.ts';

/** The Prometheus text of this process: the app's registry and the event counters. */
export async function metricsText(registry: Registry) {
  return `${await registry.metrics()}\n${await eventRegistry.metrics()}`;
}

/**
 * Prometheus metrics: process defaults, HTTP latency by route, and the event counters. Never a
 * route of the app itself (whoever reaches its port would read them): serveMetrics serves them on
 * METRICS_PORT.
 */
export function registerMetrics(app: FastifyInstance, service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  eventRegistry.setDefaultLabels({ service });
  // The event-loop delay is sampled every 100 ms (prom-client's default is 10 ms, which wakes
  // an idle process a hundred times a second for a histogram read every scrape).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_server_errors_total',
    help: 'Answers with a 5xx status',
    labelNames: ['route'],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.labels(request.method, route, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.labels(route).inc();
    done();
  });
  return registry;
}

/**
 * GET /metrics on a port of its own, for Prometheus inside the cluster (its NetworkPolicy lets
 * only the monitoring namespace reach it); port 0 takes any free one.
 */
export async function serveMetrics(registry: Registry, { port, host }: { port: number; host: string }) {
  const server = createServer(async (request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Introuvable."}');
      return;
    }
    response.writeHead(200, { 'content-type': registry.contentType }).end(await metricsText(registry));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
