import { join } from 'node:path';
import { BUNDLE_CONFIG, type Deployable, deployables, isBundleFresh, packageDir } from './processes.ts';

/**
 * Builds the deployables' bundles that are missing or older than their sources, as the images
 * build them (docker/tsup.config.mjs), one after the other; returns the ones it built. The test
 * stacks call it before starting, so that their processes start from the bundles.
 */
export async function buildStaleBundles(names: readonly Deployable[] = deployables): Promise<Deployable[]> {
  const stale = names.filter((name) => !isBundleFresh(name));
  if (!stale.length) return [];
  const [{ build }, { default: config }] = await Promise.all([import('tsup'), import(BUNDLE_CONFIG)]);
  for (const name of stale) {
    const dir = packageDir(name);
    await build({ ...config, entry: [join(dir, 'src', 'main.ts')], outDir: join(dir, 'dist'), silent: true });
  }
  return stale;
}
