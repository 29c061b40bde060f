// One file per side, as FXServer loads them: the client for the game's plain V8, the server for Node 22.
// Both are IIFEs, since FXServer's global `exports` is its export proxy, not CommonJS.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(process.argv[2] ?? join(root, 'dist'));

await Promise.all([
  build({
    entryPoints: [join(root, 'src/client/main.ts')],
    outfile: join(outdir, 'client.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
  }),
  build({
    entryPoints: [join(root, 'src/server/main.ts')],
    outfile: join(outdir, 'server.js'),
    bundle: true,
    format: 'iife',
    platform: 'node',
    target: 'node22',
  }),
]);
