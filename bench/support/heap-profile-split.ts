// Bytes allocated while some work runs, split by whose work allocated them, from V8's sampling heap profiler: every
// allocation is seen by V8's allocation observers, a sample every `interval` bytes on average, with the JS stack that
// allocated it. The side of a sample is read from its stack: the simulator's host-work meter (Sim.hostWork.run) is
// wrapped so that every switch goes through one of two named functions, and the innermost of them on a sample's
// stack is its side. The markers are never optimised, so they are never inlined away and the rest of the code keeps
// its inlining (and V8's escape analysis, which inlining enables) as in a plain run.
//
// Why not the heap in use read at each switch (`used_heap_size`): over the same toggles, that meter's split moved by
// 70 KB a toggle with the machine's load and put 75 KB more on the bridge's side than the profiler did for the tree
// before the duty redesign, while the totals agreed (docs/budget.md, "Bytes allocated per duty toggle").
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { HostWork, WorkSide } from '../../sim/host/host-work.js';
import { REPO_ROOT } from './resources.js';

export interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

export interface SampledProfile {
  head: ProfileNode;
}

/** Whose work an allocation was. */
export type Share =
  /** The simulator's: natives, routing, replication, clients, the replayed panel (FXServer's C++ and other machines). */
  | 'simulator'
  /** FXServer's script runtime in the resource's context: msgpack at every boundary, refs, timers (sim/js). */
  | 'runtime'
  /** The bench's own loop calling the export and awaiting it. */
  | 'harness'
  /** Everything else on the script's side: the bridge's code and what it calls (ky, Node's fetch, rxjs, zod). */
  | 'bridge';

const HOST_MARKER = 'allocatedOnHostSide';
const SCRIPT_MARKER = 'allocatedOnScriptSide';

/**
 * Runs `work` under the sampling heap profiler with `meter` (started by the caller for the resource measured)
 * wrapped so each sample's side can be read. Returns the profile.
 */
export async function sampleHeap(
  meter: HostWork,
  work: () => Promise<void>,
  { interval = 512 }: { interval?: number } = {},
): Promise<SampledProfile> {
  const run = meter.run.bind(meter);
  // The function names are what the profile is read by (HOST_MARKER, SCRIPT_MARKER).
  function allocatedOnHostSide<T>(fn: () => T): T {
    return run('host', fn);
  }
  function allocatedOnScriptSide<T>(fn: () => T): T {
    return run('script', fn);
  }
  setFlagsFromString('--allow-natives-syntax');
  const neverOptimize = new Function('fn', '%NeverOptimizeFunction(fn)') as (fn: unknown) => void;
  setFlagsFromString('--no-allow-natives-syntax');
  neverOptimize(allocatedOnHostSide);
  neverOptimize(allocatedOnScriptSide);
  meter.run = <T>(side: WorkSide, fn: () => T): T =>
    side === 'host' ? allocatedOnHostSide(fn) : allocatedOnScriptSide(fn);
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await work();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: SampledProfile };
    return profile;
  } finally {
    session.disconnect();
    meter.run = run;
  }
}

/** A frame's source file: the bundle's frames through its source map, the rest relative to the repository. */
export function sourceFiles(): (frame: ProfileNode['callFrame']) => string {
  const map = new SourceMap(JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'server.js.map'), 'utf8')));
  return ({ url, lineNumber, columnNumber }) => {
    if (!url.endsWith('/dist/server.js')) return url.replace(/^.*\/(node_modules|sim|bench)\//, '$1/');
    const entry = map.findEntry(lineNumber, columnNumber) as { originalSource?: string };
    return (entry.originalSource ?? '(bundle)').replace(/^.*?\/(node_modules|server|shared)\//, '$1/');
  };
}

/**
 * Walks every allocation of `profile` with its side and its file (the innermost frame's; a native frame, a Map or an
 * array's slice, is charged to the file that called it), and the share that follows from them.
 */
export function walkAllocations(
  profile: SampledProfile,
  fileOf: (frame: ProfileNode['callFrame']) => string,
  visit: (bytes: number, share: Share, file: string) => void,
): void {
  const walk = (node: ProfileNode, side: WorkSide, caller: string) => {
    // A name the bundler or the runtime made unique with a numeric suffix is still the marker's.
    const name = node.callFrame.functionName.replace(/\d+$/, '');
    const here = name === HOST_MARKER ? 'host' : name === SCRIPT_MARKER ? 'script' : side;
    const file = node.callFrame.url === '' ? caller : fileOf(node.callFrame);
    if (node.selfSize > 0) visit(node.selfSize, here === 'host' ? 'simulator' : shareOfScript(file), file);
    for (const child of node.children) walk(child, here, file);
  };
  walk(profile.head, 'script', '(V8)');
}

function shareOfScript(file: string): Share {
  if (/^(sim\/|node_modules\/msgpack)/.test(file)) return 'runtime';
  if (file.startsWith('bench/')) return 'harness';
  return 'bridge';
}

/** Bytes per share over the whole profile. */
export function bytesByShare(profile: SampledProfile): Record<Share, number> {
  const fileOf = sourceFiles();
  const shares: Record<Share, number> = { simulator: 0, runtime: 0, harness: 0, bridge: 0 };
  walkAllocations(profile, fileOf, (bytes, share) => {
    shares[share] += bytes;
  });
  return shares;
}
