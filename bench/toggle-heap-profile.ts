// Where the bytes of a duty toggle go: V8's sampling heap profiler over the toggle loop of the toggle-alloc bench
// (2048 online, 400 on duty, the panel replayed), every sample put on the simulator's side or the script's by the
// host-work meter's switches, and the script's side summed by source file through the bundle's source map.
// `npx tsx bench/toggle-heap-profile.ts [--online N] [--toggles N] [--interval BYTES] [--out FILE.heapprofile]`;
// the profile written opens in Chrome DevTools' Memory tab. See docs/budget.md, "Bytes allocated per toggle".
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import type { DutyOutcome } from '../shared/events.js';
import type { WorkSide } from '../sim/host/host-work.js';
import type { SimPlayer } from '../sim/index.js';
import { MICRO_CONFIG_LINES } from './scenarios/micro.js';
import { population } from './support/population.js';
import { fillServer, startReplayedSim } from './support/replayed-sim.js';
import { ResourceVariants, serverOnlyManifest } from './support/resource-variants.js';
import { prepareResources, REPO_ROOT } from './support/resources.js';

// Inlined frames are missing from the profiler's stacks: without inlining, each sample's stack shows which side of
// the meter it was taken on (the markers below). Allocations barely move (the totals match the bench's to 1 %). The
// flag only takes effect from the command line, so the script runs itself again with it.
const NO_INLINING = '--no-turbo-inlining';
if (!process.execArgv.includes(NO_INLINING)) {
  const again = spawnSync(process.execPath, [NO_INLINING, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(again.status ?? 1);
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const online = option('--online', 2048);
const toggles = option('--toggles', 200);
const interval = option('--interval', 512);
const out = args.includes('--out') ? (args[args.indexOf('--out') + 1] as string) : undefined;

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const resources = await prepareResources();
const users = population(online);
const world = await startReplayedSim(users);
const { sim } = world;
try {
  sim.addResource(new ResourceVariants(resources.bridgeWith(MICRO_CONFIG_LINES)).copy(serverOnlyManifest), 'bridge');
  await sim.startResource('bridge');
  const { members } = await fillServer(sim, users, { online, onDuty: Math.min(400, Math.floor(online / 5)) });
  const togglers = members.slice(0, 4);
  const toggle = async (index: number) => {
    const player = togglers[index % togglers.length] as SimPlayer;
    const on = !(sim.exports.bridge.IsPlayerOnDuty(player.id) as boolean);
    const outcome = await sim.resolve(sim.exports.bridge.SetPlayerDuty(player.id, on) as Promise<DutyOutcome>);
    if (!outcome.ok) throw new Error(`a toggle failed: ${JSON.stringify(outcome)}`);
  };
  for (let index = 0; index < 16; index++) await toggle(index);

  // Every switch of the meter goes through one of two named functions: the innermost on a sample's stack is its side.
  sim.hostWork.start('bridge');
  const run = sim.hostWork.run.bind(sim.hostWork);
  function onHostSide<T>(fn: () => T): T {
    return run('host', fn);
  }
  function onScriptSide<T>(fn: () => T): T {
    return run('script', fn);
  }
  sim.hostWork.run = <T>(side: WorkSide, fn: () => T): T => (side === 'host' ? onHostSide(fn) : onScriptSide(fn));

  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: interval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let index = 0; index < toggles; index++) await toggle(index);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: ProfileNode };
  };
  session.disconnect();
  if (out) writeFileSync(out, JSON.stringify(profile));

  const map = new SourceMap(JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'server.js.map'), 'utf8')));
  const fileOf = ({ url, lineNumber, columnNumber }: ProfileNode['callFrame']): string => {
    if (!url.endsWith('/dist/server.js')) return url.replace(/^.*\/(node_modules|sim|bench)\//, '$1/') || '(V8)';
    const entry = map.findEntry(lineNumber, columnNumber) as { originalSource?: string };
    return (entry.originalSource ?? '(bundle)').replace(/^.*?\/(node_modules|server|shared)\//, '$1/');
  };
  const sides = { host: 0, script: 0 };
  const byFile = new Map<string, number>();
  const walk = (node: ProfileNode, side: keyof typeof sides, file: string) => {
    const name = node.callFrame.functionName.replace(/\d+$/, '');
    const here =
      name === onHostSide.name.replace(/\d+$/, '')
        ? 'host'
        : name === onScriptSide.name.replace(/\d+$/, '')
          ? 'script'
          : side;
    const own = fileOf(node.callFrame);
    // Native frames (a Map, an array's slice) are charged to the file that called them.
    const charged = node.callFrame.url === '' ? file : own;
    sides[here] += node.selfSize;
    if (here === 'script' && node.selfSize > 0) byFile.set(charged, (byFile.get(charged) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, here, charged);
  };
  walk(profile.head, 'script', '(V8)');
  const kb = (bytes: number) => `${(bytes / toggles / 1024).toFixed(1)} KB`;
  console.log(`${toggles} toggles, ${online} online, sampled every ${interval} bytes; per toggle:`);
  console.log(`  the simulator's side ${kb(sides.host)}, the script's side ${kb(sides.script)}`);
  const groups: Array<[string, RegExp]> = [
    [
      "Node's fetch (undici, web streams, abort signals, events)",
      /^node:internal\/(deps\/undici|webstreams|abort|event_target|worker)/,
    ],
    ['ky', /^node_modules\/ky\//],
    ['rxjs', /^node_modules\/rxjs\//],
    ["the script runtime's marshalling (msgpack, refs, timers)", /^(node_modules\/msgpack|sim\/)/],
    ['zod', /^node_modules\/zod\//],
    ["the bridge's own code", /^(server|shared)\//],
  ];
  const byGroup = new Map<string, number>();
  for (const [file, bytes] of byFile) {
    const group =
      groups.find(([, pattern]) => pattern.test(file))?.[0] ?? 'the rest (other Node internals, V8, keepNames)';
    byGroup.set(group, (byGroup.get(group) ?? 0) + bytes);
  }
  for (const [group, bytes] of [...byGroup].sort((a, b) => b[1] - a[1]))
    console.log(`${kb(bytes).padStart(12)}  ${group}`);
  console.log("  the script's side by file (innermost frame; natives charged to their caller):");
  for (const [file, bytes] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${kb(bytes).padStart(12)}  ${file}`);
  }
} finally {
  sim.hostWork.stop();
  await world.close();
  resources.remove();
}
