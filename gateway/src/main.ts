import { bootstrap, createRedis, createStorage, createTokenVerifier, loadConfig, serve } from '@cartable/service-kit';
import { buildGateway } from './app.ts';
import { gatewayConfigSchema } from './config.ts';

await bootstrap(async () => {
  const config = loadConfig(gatewayConfigSchema);
  const redis = createRedis(config.REDIS_URL);
  const storage = config.STORAGE_DRIVER === 's3' ? await createStorage(config, config.DATA_DIR) : undefined;
  const verifier = createTokenVerifier(config.AUTH_JWKS_URL, {
    onRefreshError: (err) =>
      app.log.warn({ err: (err as Error).message }, 'signing keys not re-read; the ones in hand stay in use'),
  });
  // Redis is reported, not required: without it rate limits are skipped and revocation is asked
  // of auth, so a Redis outage must not take every gateway out of the load balancer.
  const app = await buildGateway({ config, redis, storage, verifier }, [
    { name: 'redis', critical: false, check: () => redis.ping() },
  ]);
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, [() => redis.quit()]);
});
