#!/usr/bin/env node
// The shell's service worker (sw/service-worker.ts), after the shell's build: rspack bundles it
// into dist/sw.js, then Workbox's injectManifest lists the shell's built files in it (with their
// revisions), which the worker precaches. A new build of the shell is thus a new service worker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rspack } from '@rspack/core';
import { injectManifest } from 'workbox-build';

const shell = join(import.meta.dirname, '..');
const dist = join(shell, 'dist');

const compiler = rspack({
  mode: 'production',
  target: 'webworker',
  context: shell,
  entry: { sw: './sw/service-worker.ts' },
  output: { path: dist, filename: '[name].js', clean: false, publicPath: '/' },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        loader: 'builtin:swc-loader',
        options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } },
        type: 'javascript/auto',
      },
    ],
  },
  plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') })],
  devtool: false,
  performance: { hints: false },
});

const stats = await new Promise((resolve, reject) =>
  compiler.run((error, result) => {
    compiler.close(() => undefined);
    if (error) reject(error);
    else resolve(result);
  }),
);
if (stats.hasErrors()) {
  console.error(stats.toString({ all: false, errors: true }));
  process.exit(1);
}

// What every start loads: the files the page's HTML names (the shell's entry, its eager shared
// modules, its styles), already in the browser's cache after a first visit, and the app's
// manifest and icons. The shell's lazy screens are kept as they are opened (the worker's
// scripts route): precaching them all would cost a first visit about 370 KiB of mobile data.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const named = new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((match) => match[1]));
const atStart = (url) => named.has(url) || /^(?:icons\/|manifest\.webmanifest$)/.test(url);

const { count, size, warnings } = await injectManifest({
  swSrc: join(dist, 'sw.js'),
  swDest: join(dist, 'sw.js'),
  globDirectory: dist,
  // The page's HTML is the gateway's (with each page's preloads), never a precached copy.
  globPatterns: ['**/*.{js,css,webmanifest,png,svg,woff2}'],
  globIgnores: ['sw.js', '**/*.map'],
  // Hashed names change with their content: no revision needed, and no cache-busting query.
  dontCacheBustURLsMatching: /\.[0-9a-f]{8}\./,
  manifestTransforms: [async (entries) => ({ manifest: entries.filter((entry) => atStart(entry.url)), warnings: [] })],
});
for (const warning of warnings) console.warn(warning);
console.log(`service worker: ${count} files precached (${Math.round(size / 1024)} KiB)`);
