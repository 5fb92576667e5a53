import { bootstrap, createRedis, createStorage, createTokenVerifier, loadConfig, serve } from '@cartable/service-kit';
import { buildGateway } from './app.ts';
import { gatewayConfigSchema } from './config.ts';

await bootstrap(async () => {
  const config = loadConfig(gatewayConfigSchema);
  const redis = createRedis(config.REDIS_URL);
  const storage = config.STORAGE_DRIVER === 's3' ? await createStorage(config, config.DATA_DIR) : undefined;
  const app = await buildGateway({ config, redis, storage, verifier: createTokenVerifier(config.AUTH_JWKS_URL) }, [
    { name: 'redis', check: () => redis.ping() },
  ]);
  await serve(app, { port: config.PORT, host: config.HOST }, [() => redis.quit()]);
});
