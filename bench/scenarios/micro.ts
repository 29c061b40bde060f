// What the bridge costs the game server itself: the built bundles in the simulator (test/sim), the panel's own time
// left out (bench/support/replayed-panel.ts). See docs/budget.md, "Micro figures".
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPanel } from '../../mock-panel/index.js';
import type { DutyOutcome, ProfilePayload } from '../../shared/events.js';
import { type Population, population } from '../../test/server/support/population.js';
import { createSim, type Sim, type SimPlayer } from '../../test/sim/index.js';
import { KvpStore } from '../../test/sim/server/kvp.js';
import { TOKEN } from '../support/bench-world.js';
import { cpuMicros, cpuPerCall } from '../support/cpu-time.js';
import { createReplayedPanelFetch } from '../support/replayed-panel.js';
import {
  READY_EVENT,
  ResourceVariants,
  serverOnlyManifest,
  startMarkManifest,
  startMarkScripts,
} from '../support/resource-variants.js';
import { settledHeapBytes } from '../support/settled-heap.js';
import { type SimulatorCost, simulatorCost, simulatorRetainedPerCycle } from '../support/simulator-cost.js';
import { percentile } from '../support/stats.js';

export interface MicroOptions {
  /** The bridge's resource folder, with config.lua raising the panel budget (no request waits for it). */
  resource: string;
}

export interface MicroResult {
  bundleBytes: { server: number; client: number };
  /** Compile and run of the server scripts until the resource's onResourceStart handlers have run. */
  startToReady: { starts: number; wallMsP50: number; cpuMsP50: number };
  /** A toggle through the server export, everything the process does for it but the panel's handlers and the
   * simulator's idle frames (`simulatorFrameUs` each). */
  dutyToggle: { toggles: number; cpuP50Us: number; cpuP99Us: number; simulatorFrameUs: number };
  isPlayerOnDuty: { serverUs: number; clientUs: number };
  getOnDutyPlayers: { online: number; onDuty: number; cpuMsPerCall: number };
  heapPerCachedProfile: { profiles: number; bytes: number; simulatorKvpBytes: number };
  /** The simulator's own retention per cycle (`simulatorBytes`, an empty resource) is taken off `bytes`. */
  heapPerCycle: { cycles: number; bytes: number; simulatorBytes: number };
  simulator: SimulatorCost;
  durationS: number;
}

const PANEL_URL = 'http://panel.bench';
const ONLINE = 2048;
const ON_DUTY = 400;
const STARTS = { warmUp: 2, measured: 9 };
const TOGGLERS = 4;
const TOGGLES = { warmUp: 2 * TOGGLERS, measured: 300 };
const SERVER_FRAME_MS = 50;
const DAY_MS = 86_400_000;
const CYCLES = { warmUp: 30, measured: 150, accounts: 12, onDutyEvery: 10 };
/** Longer than every wait a cycle starts (RequestTimeoutMs * 2 for going on duty), so no timer holds a closure. */
const QUIET_MS = 11_000;

interface BridgeClient {
  IsPlayerOnDuty(): boolean;
  GetDutyOptions(): { ok: boolean; departments: Array<{ setActive: () => boolean }> };
  UpdatePlayerDuty(status: boolean, callback: (outcome: DutyOutcome) => void): boolean;
}

/** The in-process panel every simulator here talks to, its answers replayed once given (see replayed-panel.ts). */
async function startSim(users: Population, options: { kvpDir?: string } = {}) {
  let now = () => 0;
  const panel = createMockPanel({
    token: TOKEN,
    baseUrl: PANEL_URL,
    data: users.data,
    now: () => now(),
    rateLimit: { limit: 1_000_000_000 },
  });
  const replayed = createReplayedPanelFetch(panel, () => now());
  const originalFetch = globalThis.fetch;
  // The simulated server's Node takes its global fetch from the host when a resource starts.
  globalThis.fetch = replayed.fetch;
  const sim = await createSim({
    resources: [],
    convars: { BRIDGE_API_BASE: PANEL_URL, BRIDGE_LEO_API_TOKEN: TOKEN },
    clock: 'virtual',
    recordEvents: false,
    chat: false,
    ...(options.kvpDir ? { kvpDir: options.kvpDir } : {}),
  });
  now = () => sim.now();
  let closed = false;
  return {
    sim,
    replayed,
    async close() {
      if (closed) return;
      closed = true;
      await sim.stop();
      replayed.close();
      globalThis.fetch = originalFetch;
    },
  };
}

/** Profiles the bridge holds, from `bridge status` (its console interface). */
function cachedProfiles(sim: Sim): number {
  const mark = sim.console.length;
  sim.command('bridge status');
  const line = sim.console.slice(mark).find((entry) => entry.text.startsWith('cache'));
  return Number(line?.text.match(/\d+/)?.[0] ?? 0);
}

async function joinWithProfile(sim: Sim, users: Population, index: number): Promise<SimPlayer> {
  const member = users.members[index];
  if (!member) throw new Error(`bench: no user ${index}`);
  const player = await sim.join({ name: member.player.name, identifiers: member.player.identifiers });
  let loaded = false;
  player.on('bridge:client:profile', (profile) => {
    if ((profile as ProfilePayload).ok) loaded = true;
  });
  await sim.until(() => loaded, 30_000, `the profile of user ${index}`);
  return player;
}

async function startToReady(variants: ResourceVariants, users: Population): Promise<MicroResult['startToReady']> {
  const world = await startSim(users);
  const samples: Array<{ wallUs: number; cpuUs: number }> = [];
  world.sim.on(READY_EVENT, ([wallUs, cpuUs]) => samples.push({ wallUs: Number(wallUs), cpuUs: Number(cpuUs) }));
  try {
    for (let start = 0; start < STARTS.warmUp + STARTS.measured; start++) {
      world.sim.addResource(variants.copy(startMarkManifest, startMarkScripts), 'bridge');
      if (!(await world.sim.startResource('bridge'))) throw new Error('bench: the bridge did not start');
      await world.sim.advance(200);
      await world.sim.stopResource('bridge');
      await world.sim.advance(200);
    }
    world.sim.assertNoErrors();
  } finally {
    await world.close();
  }
  const measured = samples.slice(STARTS.warmUp);
  if (measured.length !== STARTS.measured) throw new Error(`bench: ${measured.length} starts reported ready`);
  return {
    starts: measured.length,
    wallMsP50:
      (percentile(
        measured.map((sample) => sample.wallUs),
        0.5,
      ) as number) / 1000,
    cpuMsP50:
      (percentile(
        measured.map((sample) => sample.cpuUs),
        0.5,
      ) as number) / 1000,
  };
}

/** The client export and connect/drop cycles: the whole resource, a client per player. */
async function withClients(resource: string, users: Population) {
  const world = await startSim(users);
  const { sim } = world;
  try {
    sim.addResource(resource, 'bridge');
    await sim.startResource('bridge');
    // Department members: the cycles' duty needs one.
    const members = users.members.flatMap((member, index) => (member.department ? [index] : []));
    const players: SimPlayer[] = [];
    for (const index of members.slice(0, TOGGLERS)) players.push(await joinWithProfile(sim, users, index));
    const bridgeOf = (player: SimPlayer) => player.exports.bridge as BridgeClient;
    for (const player of players) bridgeOf(player).GetDutyOptions().departments[0]?.setActive();

    const [first] = players as [SimPlayer];
    const clientUs = cpuPerCall(() => bridgeOf(first).IsPlayerOnDuty(), { perBatch: 2000 });
    for (const player of players) player.drop();
    const cycle = async (index: number) => {
      const account = members[TOGGLERS + (index % CYCLES.accounts)] as number;
      const player = await joinWithProfile(sim, users, account);
      if (index % CYCLES.onDutyEvery === 0) {
        bridgeOf(player).GetDutyOptions().departments[0]?.setActive();
        let answered = false;
        bridgeOf(player).UpdatePlayerDuty(true, () => {
          answered = true;
        });
        await sim.until(() => answered, 10_000, 'going on duty');
      }
      player.drop();
    };
    const settled = async () => {
      await sim.advance(QUIET_MS);
      sim.clearLogs();
      return settledHeapBytes();
    };
    for (let index = 0; index < CYCLES.warmUp; index++) await cycle(index);
    // Two halves, each measured on its own: a leak grows both, while a one-off jump of the heap (some runs show
    // one of about 28 MB, whatever the resource) lands in one. The smaller half is the figure.
    const half = CYCLES.measured / 2;
    const readings = [await settled()];
    const started = performance.now();
    for (let index = CYCLES.warmUp; index < CYCLES.warmUp + CYCLES.measured; index++) {
      await cycle(index);
      if ((index - CYCLES.warmUp + 1) % half === 0) readings.push(await settled());
    }
    const cycleMs = (performance.now() - started) / CYCLES.measured;
    const [before, middle, after] = readings as [number, number, number];
    sim.assertNoErrors();
    return {
      clientUs,
      cycles: CYCLES.measured,
      retainedPerCycle: Math.min(middle - before, after - middle) / half,
      cycleMs,
    };
  } finally {
    await world.close();
  }
}

/**
 * 2048 players online, 400 on duty: the server exports at scale, the duty toggles, and the heap of the profiles
 * held. Clients run nothing here (serverOnlyManifest): the figures are the server's, and 2048 client runtimes would
 * only cost the simulator.
 */
async function atServerScale(variants: ResourceVariants, users: Population) {
  const kvpDir = mkdtempSync(join(tmpdir(), 'bridge-bench-micro-kvp-'));
  const heldKvpDir = `${kvpDir}-held`;
  const world = await startSim(users, { kvpDir });
  const { sim } = world;
  try {
    sim.addResource(variants.copy(serverOnlyManifest), 'bridge');
    await sim.startResource('bridge');
    const server = () => sim.exports.bridge;
    const players: SimPlayer[] = [];
    for (let index = 0; index < ONLINE; index++) {
      const member = users.members[index] as Population['members'][number];
      players.push(await sim.join({ name: member.player.name, identifiers: member.player.identifiers }));
    }
    await sim.until(() => cachedProfiles(sim) >= ONLINE, 120_000, 'every profile');
    const members = players.filter((_, index) => users.members[index]?.department !== undefined).slice(0, ON_DUTY);
    const dutyCalls = members.map((player) => server().SetPlayerDuty(player.id, true) as Promise<DutyOutcome>);
    const outcomes = await sim.resolve(Promise.all(dutyCalls), 60_000);
    if (!outcomes.every((outcome) => outcome.ok)) throw new Error('bench: a player did not go on duty');
    const onDuty = (server().GetOnDutyPlayers() as unknown[]).length;
    const [first] = members as [SimPlayer];
    const serverUs = cpuPerCall(() => server().IsPlayerOnDuty(first.id), { perBatch: 2000 });
    const listUs = cpuPerCall(() => server().GetOnDutyPlayers(), { batches: 9, perBatch: 20 });
    const dutyToggle = await toggles(sim, members.slice(0, TOGGLERS));
    if (world.replayed.replayed < TOGGLES.measured) throw new Error('bench: the panel answered toggles itself');

    // The profiles the bridge holds, without any player: the resource restarts on the KVP they were kept in, then
    // again a day later, when it keeps none of them.
    const offCalls = members.map((player) => server().SetPlayerDuty(player.id, false) as Promise<DutyOutcome>);
    await sim.resolve(Promise.all(offCalls), 60_000);
    for (const player of players) player.drop();
    const restarted = async () => {
      await sim.restartResource('bridge');
      await sim.advance(QUIET_MS);
      sim.clearLogs();
      return { heap: await settledHeapBytes(), profiles: cachedProfiles(sim) };
    };
    const held = await restarted();
    // The KVP as the bridge kept it (the off calls' synced writes put every record in the log).
    cpSync(kvpDir, heldKvpDir, { recursive: true });
    sim.jumpWallClock(2 * DAY_MS);
    const none = await restarted();
    sim.assertNoErrors();
    if (none.profiles !== 0) throw new Error(`bench: ${none.profiles} profiles kept after two days`);
    const restored = held.profiles;
    await world.close();
    const kvpBytes = await kvpRecordHeap(heldKvpDir);
    return {
      isPlayerOnDutyServerUs: serverUs,
      getOnDutyPlayers: { online: players.length, onDuty, cpuMsPerCall: listUs / 1000 },
      dutyToggle,
      heapPerCachedProfile: {
        profiles: restored,
        bytes: (held.heap - none.heap) / restored - kvpBytes,
        simulatorKvpBytes: kvpBytes,
      },
    };
  } finally {
    await world.close();
    rmSync(kvpDir, { recursive: true, force: true });
    rmSync(heldKvpDir, { recursive: true, force: true });
  }
}

/**
 * CPU per duty toggle through the server export (the same path as a player's request: the profile check, the
 * outbox in KVP, the panel call, the events and state bag), minus the simulator's idle frames the toggle spanned.
 */
async function toggles(sim: Sim, players: SimPlayer[]): Promise<MicroResult['dutyToggle']> {
  const frameUs = await idleFrameCpu(sim);
  const samples: number[] = [];
  for (let toggle = 0; toggle < TOGGLES.warmUp + TOGGLES.measured; toggle++) {
    const player = players[toggle % players.length] as SimPlayer;
    const on = !(sim.exports.bridge.IsPlayerOnDuty(player.id) as boolean);
    const startedAt = sim.now();
    const started = cpuMicros();
    const outcome = await sim.resolve(sim.exports.bridge.SetPlayerDuty(player.id, on) as Promise<DutyOutcome>);
    const cpu = cpuMicros() - started;
    if (!outcome.ok) throw new Error(`bench: a toggle failed: ${JSON.stringify(outcome)}`);
    const frames = (sim.now() - startedAt) / SERVER_FRAME_MS;
    if (toggle >= TOGGLES.warmUp) samples.push(Math.max(0, cpu - frames * frameUs));
  }
  return {
    toggles: samples.length,
    cpuP50Us: percentile(samples, 0.5) as number,
    cpuP99Us: percentile(samples, 0.99) as number,
    simulatorFrameUs: frameUs,
  };
}

/** CPU of one server frame in which nothing happens (the median of batches). */
async function idleFrameCpu(sim: Sim): Promise<number> {
  const perFrame: number[] = [];
  for (let batch = 0; batch < 9; batch++) {
    const started = cpuMicros();
    await sim.advance(20 * SERVER_FRAME_MS);
    perFrame.push((cpuMicros() - started) / 20);
  }
  return percentile(perFrame, 0.5) as number;
}

/**
 * The simulator keeps KVP in the script heap (FXServer keeps it in its database): what one kept record costs there,
 * measured by loading the saved KVP into a store of its own, to take away from the bridge's figure.
 */
async function kvpRecordHeap(kvpDir: string): Promise<number> {
  const before = await settledHeapBytes();
  const store = new KvpStore(kvpDir);
  const records = store.keys('bridge', '').length;
  const after = await settledHeapBytes();
  if (store.keys('bridge', '').length !== records || records === 0) throw new Error('bench: no KVP records kept');
  return (after - before) / records;
}

export async function runMicro(options: MicroOptions): Promise<MicroResult> {
  const started = performance.now();
  const variants = new ResourceVariants(options.resource);
  const users = population(ONLINE);
  try {
    const startup = await startToReady(variants, users);
    const clients = await withClients(variants.copy(), users);
    const scale = await atServerScale(variants, users);
    const simulatorCycleBytes = await simulatorRetainedPerCycle(CYCLES);
    const simulator = await simulatorCost(clients.cycleMs);
    return {
      bundleBytes: {
        server: statSync(join(options.resource, 'dist', 'server.js')).size,
        client: statSync(join(options.resource, 'dist', 'client.js')).size,
      },
      startToReady: startup,
      dutyToggle: scale.dutyToggle,
      isPlayerOnDuty: { serverUs: scale.isPlayerOnDutyServerUs, clientUs: clients.clientUs },
      getOnDutyPlayers: scale.getOnDutyPlayers,
      heapPerCachedProfile: scale.heapPerCachedProfile,
      heapPerCycle: {
        cycles: clients.cycles,
        bytes: clients.retainedPerCycle - simulatorCycleBytes,
        simulatorBytes: simulatorCycleBytes,
      },
      simulator,
      durationS: (performance.now() - started) / 1000,
    };
  } finally {
    variants.remove();
  }
}

/** config.lua lines for the micro runs: a budget no request waits for, so no figure includes the pacing. */
export const MICRO_CONFIG_LINES = 'Config.PanelRateLimit = { Requests = 1000000, WindowMs = 60000 }';
