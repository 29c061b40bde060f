// Where the bytes of a duty toggle go: V8's sampling heap profiler over the toggle loop of the toggle-alloc bench
// (2048 online, 400 on duty, the panel replayed), every sample put on the simulator's side or the script's by the
// host-work meter's switches (bench/support/heap-profile-split.ts), and the script's side summed by source file
// through the bundle's source map.
// `npx tsx bench/toggle-heap-profile.ts [--online N] [--toggles N] [--interval BYTES] [--out FILE.heapprofile]
// [--keep-inlining]`; the profile written opens in Chrome DevTools' Memory tab. See docs/budget.md, "Bytes allocated
// per duty toggle".
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { DutyOutcome } from '../shared/events.js';
import type { SimPlayer } from '../sim/index.js';
import { MICRO_CONFIG_LINES } from './scenarios/micro.js';
import { type Share, sampleHeap, sourceFiles, walkAllocations } from './support/heap-profile-split.js';
import { population } from './support/population.js';
import { fillServer, startReplayedSim } from './support/replayed-sim.js';
import { ResourceVariants, serverOnlyManifest } from './support/resource-variants.js';
import { prepareResources } from './support/resources.js';

// Inlined frames are missing from the profiler's stacks, so a file's bytes go to the function it was inlined into:
// without inlining, each sample is charged to the file that allocated it (the shares barely move; --keep-inlining
// gives the shares as the bench measures them). The flag only takes effect from the command line, so the script runs
// itself again with it.
const NO_INLINING = '--no-turbo-inlining';
if (!process.execArgv.includes(NO_INLINING) && !process.argv.includes('--keep-inlining')) {
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

  sim.hostWork.start('bridge');
  const profile = await sampleHeap(
    sim.hostWork,
    async () => {
      for (let index = 0; index < toggles; index++) await toggle(index);
    },
    { interval },
  );
  if (out) writeFileSync(out, JSON.stringify(profile));

  const shares: Record<Share, number> = { simulator: 0, runtime: 0, harness: 0, bridge: 0 };
  const byFile = new Map<string, number>();
  walkAllocations(profile, sourceFiles(), (bytes, share, file) => {
    shares[share] += bytes;
    if (share !== 'simulator') byFile.set(file, (byFile.get(file) ?? 0) + bytes);
  });
  const kb = (bytes: number) => `${(bytes / toggles / 1024).toFixed(1)} KB`;
  console.log(`${toggles} toggles, ${online} online, sampled every ${interval} bytes; per toggle:`);
  console.log(
    `  the simulator's side ${kb(shares.simulator)}; the script's side: FXServer's script runtime ${kb(shares.runtime)}, the bench's loop ${kb(shares.harness)}, the bridge ${kb(shares.bridge)}`,
  );
  const groups: Array<[string, RegExp]> = [
    [
      "Node's fetch (undici, web streams, abort signals, events)",
      /^node:internal\/(deps\/undici|webstreams|abort|event_target|worker)/,
    ],
    ['ky', /^node_modules\/ky\//],
    ['rxjs', /^node_modules\/rxjs\//],
    ["the script runtime's marshalling (msgpack, refs, timers)", /^(node_modules\/msgpack|sim\/)/],
    ['zod', /^node_modules\/zod\//],
    ["the bench's loop", /^bench\//],
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
