// The server/ files one duty toggle runs, measured: V8's precise coverage while the simulator runs the built bridge
// (dist/server.js, mapped back to its sources by its source map), over one player going on duty and off again.
// A warm-up toggle runs first, so what a first call alone does (a lazy setup) is not counted.
// `npm run build && npm run toggle-files`
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MICRO_CONFIG_LINES } from '../bench/scenarios/micro.js';
import { population } from '../bench/support/population.js';
import { fillServer, startReplayedSim } from '../bench/support/replayed-sim.js';
import { ResourceVariants, serverOnlyManifest } from '../bench/support/resource-variants.js';
import { prepareResources, REPO_ROOT } from '../bench/support/resources.js';
import type { DutyOutcome } from '../shared/events.js';

interface FunctionCoverage {
  functionName: string;
  ranges: Array<{ startOffset: number; endOffset: number; count: number }>;
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

/** Places in dist/server.js mapped to their source files, by its source map. */
function bundleSources(): (offset: number) => string | undefined {
  const bundle = readFileSync(join(REPO_ROOT, 'dist', 'server.js'), 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'server.js.map'), 'utf8')));
  const lineStarts = [0];
  for (let index = bundle.indexOf('\n'); index !== -1; index = bundle.indexOf('\n', index + 1))
    lineStarts.push(index + 1);

  // The source file of a place, as `server/...` or `shared/...`; undefined for a library's.
  return (offset) => {
    let line = 0;
    while (line + 1 < lineStarts.length && (lineStarts[line + 1] as number) <= offset) line++;
    const entry = map.findEntry(line, offset - (lineStarts[line] as number)) as { originalSource?: string };
    const source = entry.originalSource?.replace(/^.*?\/(node_modules|server|shared)\//, '$1/');
    return source && /^(server|shared)\//.test(source) ? source : undefined;
  };
}

/** The files in server/ and shared/ whose functions one duty toggle ran, each with the names of those functions. */
export async function toggleFiles(): Promise<Map<string, Set<string>>> {
  const sourceAt = bundleSources();
  const resources = await prepareResources();
  const users = population(4);
  const world = await startReplayedSim(users);
  const session = new Session();
  session.connect();
  try {
    const { sim } = world;
    sim.addResource(new ResourceVariants(resources.bridgeWith(MICRO_CONFIG_LINES)).copy(serverOnlyManifest), 'bridge');
    await sim.startResource('bridge');
    const { members } = await fillServer(sim, users, { online: 4, onDuty: 1 });
    const player = members[0];
    if (!player) throw new Error('toggle-files: no department member among the players');
    const toggle = async () => {
      for (const on of [false, true]) {
        const outcome = await sim.resolve(sim.exports.bridge.SetPlayerDuty(player.id, on) as Promise<DutyOutcome>);
        if (!outcome.ok) throw new Error(`toggle-files: the toggle failed: ${JSON.stringify(outcome)}`);
      }
    };
    await toggle();

    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await session.post('Profiler.takePreciseCoverage'); // resets the counts: only the toggle below is counted
    await toggle();
    const { result } = (await session.post('Profiler.takePreciseCoverage')) as unknown as { result: ScriptCoverage[] };
    await session.post('Profiler.stopPreciseCoverage');

    const files = new Map<string, Set<string>>();
    for (const script of result.filter((entry) => entry.url.endsWith('/dist/server.js'))) {
      for (const fn of script.functions) {
        const [whole] = fn.ranges;
        if (!whole || whole.count === 0 || whole.startOffset === 0) continue;
        const file = sourceAt(whole.startOffset);
        if (!file) continue;
        if (!files.has(file)) files.set(file, new Set());
        files.get(file)?.add(fn.functionName || '(anonymous)');
      }
    }
    return files;
  } finally {
    session.disconnect();
    await world.close();
    resources.remove();
  }
}

async function main(): Promise<void> {
  const files = await toggleFiles();
  const server = [...files.keys()].filter((file) => file.startsWith('server/')).sort();
  const shared = [...files.keys()].filter((file) => file.startsWith('shared/')).sort();
  console.log(`One duty toggle (off, then on again, through exports.bridge.SetPlayerDuty) ran functions of:`);
  const slices = new Set(server.filter((file) => file.split('/').length > 2).map((file) => file.split('/')[1]));
  console.log(`  ${server.length} files in server/, in ${slices.size} slices (${[...slices].join(', ')})`);
  for (const file of server) console.log(`    ${file}  (${files.get(file)?.size} functions)`);
  console.log(`  and ${shared.length} files in shared/`);
  for (const file of shared) console.log(`    ${file}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
