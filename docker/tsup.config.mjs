// Production bundle of one deployable (gateway or a service), used by every Dockerfile:
//   cd <package folder> && npx tsup --config <repo>/docker/tsup.config.mjs
// Same as `tsup src/main.ts --format esm --platform node --target node22 --out-dir dist`,
// plus two rules the CLI cannot express:
//   - the workspace libs (@cartable/*) are TypeScript sources: they are bundled in;
//   - so is drizzle-orm, pure JavaScript: its package.json carries a 180 KB exports map that
//     Node (22 and 24) parses again for each of its files loaded as ESM, 0.5 to 0.8 s of CPU
//     at every start; bundled, only the parts a service uses are loaded, from one file;
//   - every other npm package stays external: the image installs them with
//     `npm ci --omit=dev --workspace ...` (native addons such as @node-rs/argon2 or sharp,
//     WASM assets such as PGlite's, and pino's worker transports cannot be bundled safely).
// The esbuild metafile is emitted so that docker/check-externals.mjs can prove, at image
// build time, that every external import resolves from the pruned production node_modules.
export default {
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  outDir: 'dist',
  clean: true,
  splitting: false,
  sourcemap: true,
  metafile: true,
  dts: false,
  noExternal: [/^@cartable\//, /^drizzle-orm(\/|$)/],
  skipNodeModulesBundle: true,
};
