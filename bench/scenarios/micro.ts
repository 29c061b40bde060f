// What the bridge costs the game server itself: the built bundles in the simulator (test/sim), the panel's own time
// left out (bench/support/replayed-panel.ts). See docs/budget.md, "Micro figures".
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
import { type SimulatorCost, simulatorCost } from '../support/simulator-cost.js';
import { percentile } from '../support/stats.js';

export interface MicroOptions {
  /** The bridge's resource folder, with config.lua raising the panel budget (no request waits for it). */
  resource: string;
}

export interface MicroResult {
  bundleBytes: { server: number; client: number };
  /** Compile and run of the server scripts until the resource's onResourceStart handlers have run. */
  startToReady: { starts: number; wallMsP50: number; cpuMsP50: number };
  /** A player's toggle, client export to callback, everything the process does for it but the panel's handlers. */
  dutyToggle: { toggles: number; cpuP50Us: number; cpuP99Us: number };
  isPlayerOnDuty: { serverUs: number; clientUs: number };
  getOnDutyPlayers: { online: number; onDuty: number; cpuMsPerCall: number };
  heapPerCachedProfile: { profiles: number; bytes: number; simulatorKvpBytes: number };
  heapPerCycle: { cycles: number; bytes: number };
  simulator: SimulatorCost;
  durationS: number;
}

const PANEL_URL = 'http://panel.bench';
const ONLINE = 2048;
const ON_DUTY = 400;
const STARTS = { warmUp: 2, measured: 9 };
const TOGGLERS = 4;
const TOGGLES = { warmUp: 2 * TOGGLERS, measured: 400 };
/** A player's duty requests refill at 0.5 a second (server/net/client-event-limits.ts): one each per round. */
const ROUND_MS = 2_000;
const CYCLES = { warmUp: 60, measured: 300, accounts: 12, onDutyEvery: 10 };
/** Longer than every wait a cycle starts (RequestTimeoutMs * 2 for going on duty), so no timer holds a closure. */
const QUIET_MS = 11_000;
const WARM_PROFILES = 128;

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

/** Toggles, the client export, and connect/drop cycles: the whole resource, a client per player. */
async function withClients(resource: string, users: Population) {
  const world = await startSim(users);
  const { sim } = world;
  try {
    sim.addResource(resource, 'bridge');
    await sim.startResource('bridge');
    // Department members: the toggles and the cycles' duty need one.
    const members = users.members.flatMap((member, index) => (member.department ? [index] : []));
    const players: SimPlayer[] = [];
    for (const index of members.slice(0, TOGGLERS)) players.push(await joinWithProfile(sim, users, index));
    const bridgeOf = (player: SimPlayer) => player.exports.bridge as BridgeClient;
    for (const player of players) bridgeOf(player).GetDutyOptions().departments[0]?.setActive();

    const samples: number[] = [];
    for (let toggle = 0; toggle < TOGGLES.warmUp + TOGGLES.measured; toggle++) {
      const player = players[toggle % TOGGLERS] as SimPlayer;
      const on = !bridgeOf(player).IsPlayerOnDuty();
      let outcome: DutyOutcome | undefined;
      const started = cpuMicros();
      bridgeOf(player).UpdatePlayerDuty(on, (answer) => {
        outcome = answer;
      });
      await sim.until(() => outcome !== undefined, 10_000, 'a duty toggle');
      const cpu = cpuMicros() - started;
      if (!outcome?.ok) throw new Error(`bench: a toggle failed: ${JSON.stringify(outcome)}`);
      if (toggle >= TOGGLES.warmUp) samples.push(cpu);
      if (toggle % TOGGLERS === TOGGLERS - 1) await sim.advance(ROUND_MS);
    }
    const [first] = players as [SimPlayer];
    const clientUs = cpuPerCall(() => bridgeOf(first).IsPlayerOnDuty(), { perBatch: 2000 });
    if (world.replayed.replayed < TOGGLES.measured) throw new Error('bench: the panel answered toggles itself');

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
    const before = await settled();
    const started = performance.now();
    for (let index = CYCLES.warmUp; index < CYCLES.warmUp + CYCLES.measured; index++) await cycle(index);
    const cycleMs = (performance.now() - started) / CYCLES.measured;
    const after = await settled();
    sim.assertNoErrors();
    return {
      dutyToggle: {
        toggles: samples.length,
        cpuP50Us: percentile(samples, 0.5) as number,
        cpuP99Us: percentile(samples, 0.99) as number,
      },
      clientUs,
      heapPerCycle: { cycles: CYCLES.measured, bytes: (after - before) / CYCLES.measured },
      cycleMs,
    };
  } finally {
    await world.close();
  }
}

/**
 * 2048 players online, 400 on duty: the server exports at scale and the heap of the profiles held. Clients run
 * nothing here (serverOnlyManifest): the figures are the server's, and 2048 client runtimes would cost minutes.
 */
async function atServerScale(variants: ResourceVariants, users: Population) {
  const kvpDir = mkdtempSync(join(tmpdir(), 'bridge-bench-micro-kvp-'));
  const world = await startSim(users, { kvpDir });
  const { sim } = world;
  try {
    sim.addResource(variants.copy(serverOnlyManifest), 'bridge');
    await sim.startResource('bridge');
    const server = () => sim.exports.bridge;
    const joinAll = async (from: number, count: number) => {
      const wanted = cachedProfiles(sim) + count;
      const players: SimPlayer[] = [];
      for (let index = from; index < from + count; index++) {
        const member = users.members[index] as Population['members'][number];
        players.push(await sim.join({ name: member.player.name, identifiers: member.player.identifiers }));
      }
      await sim.until(() => cachedProfiles(sim) >= wanted, 120_000, 'every profile');
      return players;
    };
    const settled = async () => {
      await sim.advance(QUIET_MS);
      sim.clearLogs();
      return settledHeapBytes();
    };

    // The code paths a profile takes run once before the first measure, so their bytecode is not counted.
    for (const player of await joinAll(ONLINE, WARM_PROFILES)) player.drop();
    const before = await settled();

    const players = await joinAll(0, ONLINE);
    const members = players.filter((_, index) => users.members[index]?.department !== undefined).slice(0, ON_DUTY);
    const dutyCalls = members.map((player) => server().SetPlayerDuty(player.id, true) as Promise<DutyOutcome>);
    const outcomes = await sim.resolve(Promise.all(dutyCalls), 60_000);
    if (!outcomes.every((outcome) => outcome.ok)) throw new Error('bench: a player did not go on duty');
    const onDuty = (server().GetOnDutyPlayers() as unknown[]).length;
    const [first] = members as [SimPlayer];
    const serverUs = cpuPerCall(() => server().IsPlayerOnDuty(first.id), { perBatch: 2000 });
    const listUs = cpuPerCall(() => server().GetOnDutyPlayers(), { batches: 9, perBatch: 20 });

    const offCalls = members.map((player) => server().SetPlayerDuty(player.id, false) as Promise<DutyOutcome>);
    await sim.resolve(Promise.all(offCalls), 60_000);
    for (const player of players) player.drop();
    const after = await settled();
    sim.assertNoErrors();
    // An orderly stop writes the KVP the simulator held to disk, where kvpRecordHeap reads it.
    await world.close();
    return {
      isPlayerOnDutyServerUs: serverUs,
      getOnDutyPlayers: { online: players.length, onDuty, cpuMsPerCall: listUs / 1000 },
      heapPerCachedProfile: {
        profiles: ONLINE,
        grossBytes: (after - before) / ONLINE,
        simulatorKvpBytes: await kvpRecordHeap(kvpDir),
      },
    };
  } finally {
    await world.close();
    rmSync(kvpDir, { recursive: true, force: true });
  }
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
  const users = population(ONLINE + WARM_PROFILES);
  try {
    const startup = await startToReady(variants, users);
    const clients = await withClients(variants.copy(), users);
    const scale = await atServerScale(variants, users);
    const simulator = await simulatorCost(clients.cycleMs);
    const kvp = scale.heapPerCachedProfile.simulatorKvpBytes;
    return {
      bundleBytes: {
        server: statSync(join(options.resource, 'dist', 'server.js')).size,
        client: statSync(join(options.resource, 'dist', 'client.js')).size,
      },
      startToReady: startup,
      dutyToggle: clients.dutyToggle,
      isPlayerOnDuty: { serverUs: scale.isPlayerOnDutyServerUs, clientUs: clients.clientUs },
      getOnDutyPlayers: scale.getOnDutyPlayers,
      heapPerCachedProfile: {
        profiles: scale.heapPerCachedProfile.profiles,
        bytes: scale.heapPerCachedProfile.grossBytes - kvp,
        simulatorKvpBytes: kvp,
      },
      heapPerCycle: clients.heapPerCycle,
      simulator,
      durationS: (performance.now() - started) / 1000,
    };
  } finally {
    variants.remove();
  }
}

/** config.lua lines for the micro runs: a budget no request waits for, so no figure includes the pacing. */
export const MICRO_CONFIG_LINES = 'Config.PanelRateLimit = { Requests = 1000000, WindowMs = 60000 }';
