// What the bridge costs the game server itself: the built bundles in the simulator (sim/), the panel's own time
// left out (bench/support/replayed-panel.ts). See docs/budget.md, "Micro figures".

import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DutyOutcome, ProfilePayload } from '../../shared/events.js';
import { KvpStore, type Sim, type SimPlayer, switchCostUs } from '../../sim/index.js';
import { gcSeen } from '../support/allocation-meter.js';
import { cpuMicros, cpuPerCall } from '../support/cpu-time.js';
import { type Population, population } from '../support/population.js';
import { cachedProfiles, fillServer, startReplayedSim } from '../support/replayed-sim.js';
import {
  READY_EVENT,
  ResourceVariants,
  serverOnlyManifest,
  startMarkManifest,
  startMarkScripts,
} from '../support/resource-variants.js';
import { retainedPerCycle, settledHeapBytes } from '../support/settled-heap.js';
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
  /**
   * A toggle through the server export. `total*`: all the CPU of the process from the call until its promise settles
   * (the panel's handlers replayed away, nothing else taken off). `bridge*`: the same minus the simulator's own work
   * for it (Sim.hostWork: natives, event routing and fan-out, replication, frames, the caller's side of the export
   * call, the replayed panel's synchronous part) and minus the meter's clock reads; what the meter cannot place
   * stays in. `collections`: toggles a garbage collection ran in (`bridgeP99WithoutCollectionsUs` leaves them out).
   */
  dutyToggle: {
    toggles: number;
    totalP50Us: number;
    totalP99Us: number;
    hostP50Us: number;
    switchesPerToggle: number;
    switchCostUs: number;
    bridgeP50Us: number;
    bridgeP99Us: number;
    collections: number;
    bridgeP99WithoutCollectionsUs: number;
  };
  isPlayerOnDuty: { serverUs: number; clientUs: number };
  /**
   * `cpuMsPerCall`: the whole call as another resource makes it (the target's figure). `bridgeMsPerCall`: the
   * bridge's side of it (arguments unpacked, the list, the result packed: JS in FXServer too); the rest is the
   * caller's packing and unpacking and the simulator's routing.
   */
  getOnDutyPlayers: { online: number; onDuty: number; cpuMsPerCall: number; bridgeMsPerCall: number };
  heapPerCachedProfile: { profiles: number; bytes: number; simulatorKvpBytes: number };
  /** `simulatorBytes`: what the simulator keeps per cycle with a resource that runs nothing (not taken off). */
  heapPerCycle: { cycles: number; bytes: number; simulatorBytes: number };
  simulator: SimulatorCost;
  durationS: number;
}

const ONLINE = 2048;
const ON_DUTY = 400;
const STARTS = { warmUp: 2, measured: 9 };
const TOGGLERS = 4;
const TOGGLES = { warmUp: 2 * TOGGLERS, measured: 300 };
const DAY_MS = 86_400_000;
const CYCLES = { warmUp: 30, measured: 150, parts: 3, accounts: 12, onDutyEvery: 10 };
/** Longer than every wait a cycle starts (RequestTimeoutMs * 2 for going on duty), so no timer holds a closure. */
const QUIET_MS = 11_000;

interface BridgeClient {
  IsPlayerOnDuty(): boolean;
  GetDutyOptions(): { ok: boolean; departments: Array<{ setActive: () => boolean }> };
  UpdatePlayerDuty(status: boolean, callback: (outcome: DutyOutcome) => void): boolean;
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
  const world = await startReplayedSim(users);
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
  const world = await startReplayedSim(users);
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
      world.forgetPanelRecords();
      return settledHeapBytes();
    };
    for (let index = 0; index < CYCLES.warmUp; index++) await cycle(index);
    // Three parts, each measured on its own, the median taken (see retainedPerCycle).
    const part = CYCLES.measured / CYCLES.parts;
    const readings = [await settled()];
    const started = performance.now();
    for (let index = CYCLES.warmUp; index < CYCLES.warmUp + CYCLES.measured; index++) {
      await cycle(index);
      if ((index - CYCLES.warmUp + 1) % part === 0) readings.push(await settled());
    }
    const cycleMs = (performance.now() - started) / CYCLES.measured;
    sim.assertNoErrors();
    return {
      clientUs,
      cycles: CYCLES.measured,
      retainedPerCycle: retainedPerCycle(readings, part),
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
  const world = await startReplayedSim(users, { kvpDir });
  const { sim } = world;
  try {
    sim.addResource(variants.copy(serverOnlyManifest), 'bridge');
    await sim.startResource('bridge');
    const server = () => sim.exports.bridge;
    const { players, members } = await fillServer(sim, users, { online: ONLINE, onDuty: ON_DUTY });
    const onDuty = (server().GetOnDutyPlayers() as unknown[]).length;
    const [first] = members as [SimPlayer];
    const serverUs = cpuPerCall(() => server().IsPlayerOnDuty(first.id), { perBatch: 2000 });
    const list = () => server().GetOnDutyPlayers();
    const listUs = cpuPerCall(list, { batches: 9, perBatch: 20 });
    const listBridgeUs = bridgeSidePerCall(sim, list, { batches: 9, perBatch: 20 });
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
      getOnDutyPlayers: {
        online: players.length,
        onDuty,
        cpuMsPerCall: listUs / 1000,
        bridgeMsPerCall: listBridgeUs / 1000,
      },
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
 * outbox in KVP, the panel call, the events and state bag): all of it, and the bridge's side of it (Sim.hostWork).
 */
async function toggles(sim: Sim, players: SimPlayer[]): Promise<MicroResult['dutyToggle']> {
  const switchCost = switchCostUs();
  const collections = gcSeen();
  const samples: Array<{ total: number; host: number; switches: number; bridge: number; from: number; to: number }> =
    [];
  sim.hostWork.start('bridge');
  try {
    for (let toggle = 0; toggle < TOGGLES.warmUp + TOGGLES.measured; toggle++) {
      const player = players[toggle % players.length] as SimPlayer;
      const on = !(sim.exports.bridge.IsPlayerOnDuty(player.id) as boolean);
      const from = performance.now();
      const host = sim.hostWork.hostUs;
      const switches = sim.hostWork.switches;
      const started = cpuMicros();
      const outcome = await sim.resolve(sim.exports.bridge.SetPlayerDuty(player.id, on) as Promise<DutyOutcome>);
      const total = cpuMicros() - started;
      const hostUs = sim.hostWork.hostUs - host;
      const switched = sim.hostWork.switches - switches;
      const to = performance.now();
      if (!outcome.ok) throw new Error(`bench: a toggle failed: ${JSON.stringify(outcome)}`);
      const bridge = Math.max(0, total - hostUs - switched * switchCost);
      if (toggle >= TOGGLES.warmUp) samples.push({ total, host: hostUs, switches: switched, bridge, from, to });
    }
  } finally {
    sim.hostWork.stop();
  }
  const pauses = await collections.stop();
  const collided = new Set(
    samples.filter((sample) =>
      pauses.some((pause) => pause.start < sample.to && pause.start + pause.duration > sample.from),
    ),
  );
  const of = (pick: (sample: (typeof samples)[number]) => number, share: number, only = samples) =>
    percentile(only.map(pick), share) as number;
  return {
    toggles: samples.length,
    totalP50Us: of((sample) => sample.total, 0.5),
    totalP99Us: of((sample) => sample.total, 0.99),
    hostP50Us: of((sample) => sample.host, 0.5),
    switchesPerToggle: of((sample) => sample.switches, 0.5),
    switchCostUs: switchCost,
    bridgeP50Us: of((sample) => sample.bridge, 0.5),
    bridgeP99Us: of((sample) => sample.bridge, 0.99),
    collections: collided.size,
    bridgeP99WithoutCollectionsUs: of(
      (sample) => sample.bridge,
      0.99,
      samples.filter((sample) => !collided.has(sample)),
    ),
  };
}

/** The bridge's side of a synchronous call (Sim.hostWork), per call: the median over batches, as cpuPerCall. */
function bridgeSidePerCall(sim: Sim, call: () => unknown, { batches = 15, perBatch = 1000 } = {}): number {
  const switchCost = switchCostUs();
  sim.hostWork.start('bridge');
  try {
    const perCall: number[] = [];
    for (let batch = 0; batch <= batches; batch++) {
      const host = sim.hostWork.hostUs;
      const switches = sim.hostWork.switches;
      const started = cpuMicros();
      for (let index = 0; index < perBatch; index++) call();
      const total = cpuMicros() - started;
      const bridge = total - (sim.hostWork.hostUs - host) - (sim.hostWork.switches - switches) * switchCost;
      if (batch > 0) perCall.push(bridge / perBatch);
    }
    return percentile(perCall, 0.5) as number;
  } finally {
    sim.hostWork.stop();
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
        bytes: clients.retainedPerCycle,
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
