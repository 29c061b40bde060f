import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateSync, type Zippable, zipSync } from 'fflate';
import { COMMUNITY_MODULE } from '../server/community/load-community.js';
import { INTEGRATIONS_MODULE } from '../server/integrations/load-integrations.js';
import { METRICS_MODULE } from '../server/metrics/load-metrics.js';

// npm run package [-- --out <dir>] [--no-build]: the drop-in resource folder <dir>/bridge and <dir>/bridge.zip
// (default <dir>: package/), holding only what FXServer loads (the manifest's scripts and the optional modules the
// server bundle requires: dist/redis.cjs, dist/metrics.cjs, dist/integrations.cjs), the bundles' source maps, the server
// owner's README,
// the owner-facing docs, the licence and the types for resources written in TypeScript or Lua.

export const RESOURCE_NAME = 'bridge';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The repository's README.md is for contributors; an owner gets PACKAGE-README.md as the package's README.md. It
// lies at the root so that its links (docs/..., types/..., LICENSE) resolve in the repository as in the package.
const README = { from: 'PACKAGE-README.md', to: 'README.md' };
// What an owner reads besides the README; test/package/package-links.test.ts checks that every relative link in
// them resolves inside the package.
const DOCUMENTS = [
  'LICENSE',
  'docs/budget.md',
  'docs/integrations.md',
  'docs/locale-and-notifications.md',
  'docs/prometheus/bridge-alerts.test.yml',
  'docs/prometheus/bridge-alerts.yml',
  'docs/reliability.md',
];
// For resources written in TypeScript (types/README.md; index.d.ts is built with the bundles), and the LuaLS
// definitions for resources written in Lua (types/lua/).
const TYPES = [
  'types/README.md',
  'types/client.d.ts',
  'types/index.d.ts',
  'types/server.d.ts',
  'types/state-bag.d.ts',
  'types/lua/client.lua',
  'types/lua/server.lua',
  'types/lua/shared.lua',
];
const MANIFEST = 'fxmanifest.lua';
// The optional modules: loaded by dist/server.js with FXServer's `require` only when their feature is on, so not named
// in the manifest (server/kernel/optional-module.ts cites how FXServer resolves them from the
// resource's folder).
const REQUIRED_AT_RUN_TIME = [COMMUNITY_MODULE, METRICS_MODULE, INTEGRATIONS_MODULE].map(({ path }) =>
  posix.normalize(path),
);

// A manifest entry that names files: `client_script 'x'`, `server_scripts { 'a', 'b' }`, `files { ... }`, ...
const FILE_ENTRY =
  /^\s*(?:shared_scripts?|server_scripts?|client_scripts?|files?|ui_page)\s*(\{[^}]*\}|'[^']*'|"[^"]*")/gm;
const QUOTED = /'([^']*)'|"([^"]*)"/g;

/** The manifest and every file it names: what FXServer needs of the resource at run time. */
export function manifestFiles(root: string): string[] {
  const manifest = readFileSync(join(root, MANIFEST), 'utf8');
  const named = [...manifest.matchAll(FILE_ENTRY)].flatMap(([, list]) =>
    [...(list as string).matchAll(QUOTED)].map((quoted) => (quoted[1] ?? quoted[2]) as string),
  );
  // `@other/file` entries live in other resources.
  const own = named.filter((file) => !file.startsWith('@'));
  const globbed = own.filter((file) => /[*?[]/.test(file));
  if (globbed.length > 0)
    throw new Error(`${MANIFEST} names files by glob, which packaging does not expand: ${globbed}`);
  return [MANIFEST, ...own];
}

// The last line of a bundle built with a source map: `//# sourceMappingURL=server.js.map`.
const SOURCE_MAP_URL = /\/\/# sourceMappingURL=([^\s]+)\s*$/;

/**
 * The source map each script names, next to it: it maps a stack trace of the minified bundle back to the source. A
 * script names its own map, so a bundle built without one ships without one.
 */
export function sourceMapsOf(root: string, files: readonly string[]): string[] {
  return files
    .filter((file) => /\.c?js$/.test(file) && existsSync(join(root, file)))
    .flatMap((file) => {
      const url = SOURCE_MAP_URL.exec(readFileSync(join(root, file), 'utf8'))?.[1];
      return url && !url.startsWith('data:') ? [posix.join(posix.dirname(file), url)] : [];
    });
}

export interface ZipEntry {
  /** Path inside the archive, with forward slashes. */
  path: string;
  data: Uint8Array;
}

// Every entry is dated 1980-01-01 00:00 (fflate writes local time; this is the first DOS date), so the same files
// always give the same archive.
const FIRST_DOS_DATE = new Date(1980, 0, 1);
// Unix with mode -rw-r--r--: extracted files are readable by the server's user, not only the owner.
const UNIX = 3;
const REGULAR_FILE_0644 = (0o100644 << 16) >>> 0;
const BEST = 9;
const STORE = 0;

/** A zip archive of the entries, in their order, as unzip, Windows Explorer and txAdmin read it. */
export function zip(entries: readonly ZipEntry[]): Uint8Array {
  const files: Zippable = {};
  for (const { path, data } of entries) {
    // Stored as is when deflate would not shrink it, as zip tools do.
    const level = deflateSync(data, { level: BEST }).length < data.length ? BEST : STORE;
    files[path] = [data, { level, mtime: FIRST_DOS_DATE, os: UNIX, attrs: REGULAR_FILE_0644 }];
  }
  return zipSync(files);
}

export interface PackageOptions {
  /** Where `bridge/` and `bridge.zip` go. */
  outDir: string;
  /** Build dist/ first (tsup.config.ts); off when dist/ was just built. */
  build: boolean;
  root?: string;
}

/** A file of the package: where it comes from in the repository and where it goes in the resource folder. */
export interface PackagedFile {
  from: string;
  to: string;
}

export interface PackageResult {
  folder: string;
  zipFile: string;
  /** Paths inside the resource folder, sorted. */
  files: string[];
}

/** Every file of the package, sorted by its place in the resource folder. */
export function packagedFiles(root: string): PackagedFile[] {
  const loaded = [...manifestFiles(root), ...REQUIRED_AT_RUN_TIME];
  const same = [...new Set([...loaded, ...sourceMapsOf(root, loaded), ...DOCUMENTS, ...TYPES])];
  return [README, ...same.map((file) => ({ from: file, to: file }))].sort((a, b) => (a.to < b.to ? -1 : 1));
}

export async function packageResource({ outDir, build, root = ROOT }: PackageOptions): Promise<PackageResult> {
  if (build) {
    const { build: buildBundles } = await import('tsup');
    // tsup.config.ts names its entries relative to the repository root.
    process.chdir(root);
    await buildBundles({ silent: true });
  }
  const packaged = packagedFiles(root);
  const missing = packaged.filter(({ from }) => !existsSync(join(root, from))).map(({ from }) => from);
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}; run npm run build first`);

  const folder = join(outDir, RESOURCE_NAME);
  rmSync(folder, { recursive: true, force: true });
  for (const { from, to } of packaged) cpSync(join(root, from), join(folder, to));
  const files = packaged.map(({ to }) => to);

  // Entries under bridge/, so unzipping into resources/ gives resources/bridge.
  const zipFile = join(outDir, `${RESOURCE_NAME}.zip`);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    zipFile,
    zip(files.map((file) => ({ path: `${RESOURCE_NAME}/${file}`, data: readFileSync(join(folder, file)) }))),
  );
  return { folder, zipFile, files };
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: join(ROOT, 'package') },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const result = await packageResource({ outDir: resolve(values.out), build: !values['no-build'] });
  console.log(`packaged ${result.files.length} files into ${result.folder} and ${result.zipFile}:`);
  for (const file of result.files) console.log(`  ${file}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`npm run package failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
