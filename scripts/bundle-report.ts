import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { build, type Options } from 'tsup';
import tsupConfigs from '../tsup.config';

// npm run bundle-report: what each bundle is made of, by package, from esbuild's metafile. The build is the one of
// tsup.config.ts, written to a temporary folder so dist/ is left alone; each metafile stays there for a closer look
// (drop it on https://esbuild.github.io/analyze/).

export interface BundleReport {
  bundle: string;
  bytes: number;
  /** Bytes in the bundle by package (`rxjs`, `@noble/hashes`) or, for our own code, by top folder (`server`). */
  packages: Array<{ name: string; bytes: number }>;
  metafile: string;
}

/** `node_modules/@scope/name/...` is `@scope/name`; `server/panel/x.ts` is `server`. */
export function packageOf(input: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (inModules) return inModules[1] as string;
  return input.split('/').find((part) => part !== '..' && part !== '.') ?? input;
}

export function summarise(bundle: string, output: Metafile['outputs'][string], metafile: string): BundleReport {
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  const packages = [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { bundle, bytes: output.bytes, packages, metafile };
}

async function reportOf(config: Options): Promise<BundleReport> {
  const outDir = mkdtempSync(join(tmpdir(), 'bridge-bundle-report-'));
  await build({ ...config, outDir, metafile: true, silent: true, config: false });
  // tsup names the metafile after the format, so each bundle is built into a folder of its own.
  const metafile = join(outDir, `metafile-${config.format}.json`);
  const { outputs } = JSON.parse(readFileSync(metafile, 'utf8')) as Metafile;
  const [file, output] = Object.entries(outputs).find(([path]) => /\.c?js$/.test(path)) ?? [];
  if (!file || !output) throw new Error(`${metafile} names no JavaScript output`);
  return summarise(file.split('/').at(-1) as string, output, metafile);
}

/** The builds of tsup.config.ts that write a JavaScript bundle. */
export function javaScriptBundles(configs: typeof tsupConfigs): Options[] {
  const all = (Array.isArray(configs) ? configs : [configs]) as Options[];
  // The types/index.d.ts build writes declarations only: there is no JavaScript to report on.
  return all.filter((config) => !(typeof config.dts === 'object' && config.dts.only));
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  for (const config of javaScriptBundles(tsupConfigs)) {
    const report = await reportOf(config);
    console.log(`dist/${report.bundle}: ${kilobytes(report.bytes)} (${report.metafile})`);
    for (const { name, bytes } of report.packages) console.log(`  ${name.padEnd(16)} ${kilobytes(bytes).padStart(9)}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`npm run bundle-report failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
