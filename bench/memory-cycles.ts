// node --expose-gc --import tsx bench/memory-cycles.ts [--cycles 20000] [--profiles 1000] [--json]
//
// Heap the bridge server retains for players who have left: 20,000 connect/drop cycles through the server with the
// fake FXServer port of the unit tests, against the mock panel's handlers in process. Every cycle is a new server id,
// as on a real server; the chat accounts are the mock panel's few demo users plus players without one, so what a
// cycle may legitimately leave behind (a profile per chat account) is the same after 1,000 cycles as after 20,000.
// Every tenth cycle goes on duty and drops while on duty, so the duty calls and the outbox take part. The figure is
// heapUsed after global.gc() at the end minus the same after a warm-up, with nobody connected at either point; and
// the same from heap snapshots, split into data and V8's own (code, feedback, maps), which flips between runs.
// Then heap per cached profile: `--profiles` accounts of their own join and leave once each, and the snapshot diff's
// data over their count, less what the fake port's KVP keeps of them (FXServer keeps KVP in its database).
// Both heap figures are data for issue 24, not targets.
import { getHeapSpaceStatistics } from 'node:v8';
import defaultData from '../mock-panel/data/default.json' with { type: 'json' };
import { createMockPanel, type MockPanelData } from '../mock-panel/index.js';
import type { BridgeServer } from '../server/edge/bridge-server.js';
import { startBridgeServer } from '../server/edge/bridge-server.js';
import { API_BASE_CONVAR, TOKEN_CONVAR } from '../server/kernel/settings.js';
import { createMemoryStore } from '../server/kernel/storage.js';
import { ALEX, JAMIE, LSPD, SAFR } from './support/demo-users.js';
import { type FakePlayer, FakeServerPort } from './support/fake-server-port.js';
import { type HeapSummary, heapDiff, heapSummary } from './support/heap-snapshot.js';
import { createPanelFetch } from './support/panel-fetch.js';
import { population } from './support/population.js';

const args = process.argv.slice(2);
const cyclesArg = args[args.indexOf('--cycles') + 1];
const CYCLES = args.includes('--cycles') && cyclesArg ? Number(cyclesArg) : 20_000;
const profilesArg = args[args.indexOf('--profiles') + 1];
const PROFILES = args.includes('--profiles') && profilesArg ? Number(profilesArg) : 1_000;
const WARM_UP = 3_000;
const json = args.includes('--json');
/** Longer than every wait a cycle starts (RequestTimeoutMs * 2 for going on duty). */
const QUIET_MS = 11_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('run with --expose-gc: node --expose-gc --import tsx bench/memory-cycles.ts\n');
  process.exit(2);
}

const PANEL_URL = 'http://panel.bench';
const TOKEN = 'bench-memory-token-8d2f6a1c';
// The demo users for the cycles, and accounts of their own for the cached profiles.
const accounts = population(PROFILES);
const base = defaultData as MockPanelData;
const data: MockPanelData = { ...base, users: [...base.users, ...accounts.data.users] };
const panel = createMockPanel({ token: TOKEN, baseUrl: PANEL_URL, data, rateLimit: { limit: 1_000_000_000 } });
const store = createMemoryStore();
const panelFetch = createPanelFetch({ panel, now: () => Date.now(), latencyMs: 0 });
const port = new FakeServerPort({
  convars: { [API_BASE_CONVAR]: PANEL_URL, [TOKEN_CONVAR]: TOKEN },
  config: { value: { LogLevel: 'warn', PanelRateLimit: { Requests: 100_000, WindowMs: 60_000 } } },
  store,
});
const bridge: BridgeServer = startBridgeServer(port, {
  now: () => performance.timeOrigin + performance.now(),
  wallNow: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  fetch: panelFetch.fetch,
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
async function until(condition: () => boolean, what: string, limit = 20_000): Promise<void> {
  for (let round = 0; !condition(); round++) {
    if (round >= limit) throw new Error(`gave up waiting for ${what}`);
    await tick();
  }
}

const GUEST = (cycle: number): FakePlayer => ({ name: `Guest ${cycle}`, identifiers: [`license:${cycle}`] });
const ON_DUTY: Array<[FakePlayer, number]> = [
  [ALEX, LSPD.id],
  [JAMIE, SAFR.id],
];

let nextSrc = 1;
async function cycle(index: number): Promise<void> {
  const src = nextSrc++;
  const duty = index % 10 === 0 ? ON_DUTY[(index / 10) % ON_DUTY.length] : undefined;
  const player = duty?.[0] ?? (index % 2 === 0 ? ALEX : GUEST(index));
  port.join(src, player);
  port.clientReady(src);
  if (duty) {
    await until(() => port.sentTo(src, 'bridge:client:profile').length > 0, `the profile of ${src}`);
    port.requestDuty(src, 1, true, duty[1]);
    await until(() => bridge.duty.state(src).onDuty, `player ${src} on duty`);
  }
  port.requestDuty(src, 2, false, null);
  port.drop(src);
  await until(() => bridge.players.get(src) === undefined, `the drop of ${src}`);
  // What the fake port records is the test's, not the bridge's: a real FXServer forgets a dropped player's bag.
  port.clientEvents.length = 0;
  port.localEvents.length = 0;
  port.lines.length = 0;
  port.playerState.delete(src);
}

/**
 * Heap in use once everything settled: every duty call delivered, the panel's own records cleared. `code` is the
 * part V8's compiled code takes, which grows as the JIT optimises more functions, whatever the players did.
 */
async function retainedHeap(): Promise<{ heap: number; code: number }> {
  await until(() => panel.controls.sessions().every((session) => session.endedAt !== null), 'the last off calls');
  for (let round = 0; round < 50; round++) await tick();
  // Timers the last cycles started (a player's wait for going on duty) hold their closures until they fire.
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  panel.store.reset();
  // The harness's own record of the traffic (a path per request, the time since its last) is not the bridge's.
  panelFetch.traffic.repeats?.splice(0);
  panelFetch.traffic.byPath?.clear();
  panelFetch.traffic.byStatus.clear();
  for (let round = 0; round < 3; round++) {
    gc?.();
    await tick();
  }
  const code = getHeapSpaceStatistics()
    .filter((space) => space.space_name.startsWith('code'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
  return { heap: process.memoryUsage().heapUsed, code };
}

/** A heap snapshot once everything settled, as retainedHeap() leaves it. */
async function settledSnapshot(): Promise<HeapSummary> {
  await retainedHeap();
  return heapSummary();
}

/** Each account of `accounts` joins, gets its profile and leaves: the bridge keeps the profile (cache and KVP). */
async function cacheProfiles(): Promise<void> {
  for (const [index, member] of accounts.members.entries()) {
    const src = nextSrc++;
    port.join(src, member.player);
    port.clientReady(src);
    await until(() => port.sentTo(src, 'bridge:client:profile').length > 0, `the profile of account ${index}`);
    port.drop(src);
    await until(() => bridge.players.get(src) === undefined, `the drop of ${src}`);
    port.clientEvents.length = 0;
    port.localEvents.length = 0;
    port.lines.length = 0;
    port.playerState.delete(src);
  }
}

/** What the fake port's KVP keeps of the accounts' profiles: fresh copies of those records, by snapshot diff. */
async function kvpBytesPerProfile(before: HeapSummary): Promise<number> {
  const chatIds = new Set(accounts.members.map((member) => member.chatId));
  const records = [...store.entries].filter(([key]) => [...chatIds].some((chatId) => key.endsWith(chatId)));
  if (records.length < accounts.members.length) throw new Error(`only ${records.length} profiles in KVP`);
  const copy = new Map(records.map(([key, value]) => [Buffer.from(key).toString(), Buffer.from(value).toString()]));
  const after = await settledSnapshot();
  if (copy.size !== records.length) throw new Error('the copy of the KVP records went');
  return heapDiff(before, after).dataBytes / accounts.members.length;
}

async function main() {
  await bridge.ready;
  for (let index = 0; index < WARM_UP; index++) await cycle(index);
  const before = await retainedHeap();
  const snapshotBefore = await heapSummary();
  const started = performance.now();
  for (let index = WARM_UP; index < WARM_UP + CYCLES; index++) {
    await cycle(index);
    if ((index - WARM_UP + 1) % 5_000 === 0) process.stderr.write(`memory-cycles: ${index - WARM_UP + 1} cycles\n`);
  }
  const after = await retainedHeap();
  const cyclesSnapshot = heapDiff(snapshotBefore, await heapSummary());
  const retained = after.heap - before.heap;
  const code = after.code - before.code;
  const footprint = typeof bridge.footprint === 'function' ? bridge.footprint() : undefined;
  const seconds = (performance.now() - started) / 1000;
  console.log(`${CYCLES} connect/drop cycles (${CYCLES / 10} of them on duty) in ${seconds.toFixed(1)} s`);
  console.log(`players online: ${bridge.players.size}`);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  console.log(`heap retained after global.gc(): ${mb(retained)} (${(retained / CYCLES).toFixed(0)} bytes per cycle)`);
  console.log(`  of which compiled code: ${mb(code)}; data: ${mb(retained - code)}`);
  if (footprint) console.log(`per-player entries still held: ${JSON.stringify(footprint)}`);
  const perCycle = (bytes: number) => `${(bytes / CYCLES).toFixed(0)} bytes per cycle`;
  console.log(
    `heap snapshot diff (data only, issue 24's figure): ${mb(cyclesSnapshot.dataBytes)} (${perCycle(cyclesSnapshot.dataBytes)}; ≈ 0 asked)`,
  );
  console.log(
    `  V8's own (code, feedback, maps; information only, it flips between runs): ${mb(cyclesSnapshot.v8Bytes)} (${perCycle(cyclesSnapshot.v8Bytes)})`,
  );
  console.log(`  by type: ${byTypeLine(cyclesSnapshot)}`);
  console.log(`  most grown, by constructor: ${byNameLine(cyclesSnapshot)}`);

  const beforeProfiles = await settledSnapshot();
  await cacheProfiles();
  const withProfiles = await settledSnapshot();
  const profiles = heapDiff(beforeProfiles, withProfiles);
  const kvpBytes = await kvpBytesPerProfile(withProfiles);
  const perProfile = profiles.dataBytes / PROFILES - kvpBytes;
  console.log(
    `heap per cached profile (snapshot diff, data only, ${PROFILES} accounts, the fake port's KVP copy of ${kvpBytes.toFixed(0)} bytes taken off): ${(perProfile / 1024).toFixed(2)} KB (2 KB asked)`,
  );
  console.log(`  by type, per profile: ${byTypeLine(profiles, PROFILES)}`);
  if (json) {
    console.log(
      JSON.stringify({
        cycles: CYCLES,
        retainedBytes: retained,
        codeBytes: code,
        footprint,
        snapshot: {
          dataBytesPerCycle: cyclesSnapshot.dataBytes / CYCLES,
          v8BytesPerCycle: cyclesSnapshot.v8Bytes / CYCLES,
        },
        profiles: { count: PROFILES, bytesPerProfile: perProfile, kvpBytesPerProfile: kvpBytes },
      }),
    );
  }
  bridge.stop();
  panelFetch.close();
}

function byNameLine(diff: HeapSummary): string {
  return Object.entries(diff.byName)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, bytes]) => `${name} ${bytes}`)
    .join(', ');
}

function byTypeLine(diff: HeapSummary, per = 1): string {
  return Object.entries(diff.byType)
    .filter(([, bytes]) => Math.abs(bytes / per) >= 1)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([type, bytes]) => `${type} ${(bytes / per).toFixed(0)}`)
    .join(', ');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
