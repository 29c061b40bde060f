import { defineConfig } from 'tsup';

// FXServer loads each bundle as a classic script whose global `exports` is the export proxy,
// so both are IIFEs that assign nothing to `exports`/`module`, with every dependency inlined.
export default defineConfig([
  {
    entry: { server: 'server/main.ts' },
    outDir: 'dist',
    format: 'iife',
    platform: 'node',
    target: 'node22',
    tsconfig: 'server/tsconfig.json',
    noExternal: [/.*/],
    clean: false,
    sourcemap: false,
    outExtension: () => ({ js: '.js' }),
  },
  {
    entry: { client: 'client/main.ts' },
    outDir: 'dist',
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    tsconfig: 'client/tsconfig.json',
    noExternal: [/.*/],
    clean: false,
    sourcemap: false,
    outExtension: () => ({ js: '.js' }),
  },
]);
