import { BenchWorld } from '../support/bench-world.js';
import { population } from '../support/population.js';
import { percentile, seededRandom } from '../support/stats.js';

export interface OutageOptions {
  implementation: string;
  resource: string;
  players: number;
  latencyMs: number;
}

export interface OutageResult {
  implementation: string;
  players: number;
  /** Duty changes the game made (on and off, the ones at the restart included). */
  dutyChanges: number;
  lostDutyRecords: number;
  /** Seconds after the panel came back until it had every duty change the game made (undefined: never). */
  caughtUpAfterS: number | undefined;
  togglesDuringOutage: number;
  refusedDuringOutage: number;
  toggleP50DuringOutageMs: number | undefined;
  toggleP99DuringOutageMs: number | undefined;
  requestsDuringOutage: number;
  requests: number;
  tooManyRequests: number;
}

const MINUTE = 60_000;
const STEP_MS = 100;
/** The timeline: players toggling from the start, the panel down from 3 to 13 min, the server restarted at 8. */
const OUTAGE_START = 3 * MINUTE;
const RESTART_AT = 8 * MINUTE;
const OUTAGE_END = 13 * MINUTE;
const TOGGLING_ENDS = 18 * MINUTE;
const RUN_ENDS = 21 * MINUTE;

/**
 * Every player is a department member who goes on and off duty every one to three minutes. Three minutes in, the
 * panel stops answering (requests hang) for ten minutes; halfway through, the server restarts and everyone
 * reconnects. Counts the duty changes the game made that never reached the panel.
 */
export async function runOutageWithRestart(options: OutageOptions): Promise<OutageResult> {
  const users = population(options.players, { memberEvery: 1 });
  const world = await BenchWorld.start({
    resource: options.resource,
    users,
    clock: 'virtual',
    latencyMs: options.latencyMs,
  });
  const random = seededRandom(options.players + 7);
  const start = world.now;
  const at = (offset: number) => start + offset;
  const nextToggle = new Map<number, number>();
  const plan = (index: number, from: number) => nextToggle.set(index, from + MINUTE + random() * 2 * MINUTE);
  const joinAt = (offset: number) => users.members.map((_, index) => offset + (index * MINUTE) / options.players);
  let joins = joinAt(start);
  let joined = 0;
  let restarted = false;
  let outage = false;
  let requestsAtOutage = 0;
  let requestsAtRecovery = 0;
  let caughtUpAt: number | undefined;
  const outageToggles = new Set<object>();

  try {
    while (world.now < at(RUN_ENDS)) {
      const now = world.now;
      if (!outage && now >= at(OUTAGE_START) && now < at(OUTAGE_END)) {
        outage = true;
        requestsAtOutage = world.traffic.requests;
        world.panel.controls.setOutage({ mode: 'hang' });
      }
      if (outage && now >= at(OUTAGE_END)) {
        outage = false;
        requestsAtRecovery = world.traffic.requests;
        world.panel.controls.clearFaults();
      }
      if (!restarted && now >= at(RESTART_AT)) {
        restarted = true;
        await world.restart();
        joins = joinAt(world.now);
        joined = 0;
        nextToggle.clear();
      }
      while (joined < options.players && (joins[joined] as number) <= world.now) {
        const index = joined++;
        await world.join(index);
        plan(index, world.now - 30_000);
      }
      if (world.now < at(TOGGLING_ENDS)) {
        for (const [index, due] of nextToggle) {
          if (due > world.now || !world.isConnected(index)) continue;
          const before = world.toggles.length;
          if (world.isOnDuty(index)) world.goOffDuty(index);
          else world.goOnDuty(index);
          if (outage) for (const toggle of world.toggles.slice(before)) outageToggles.add(toggle);
          plan(index, world.now);
        }
      }
      if (!outage && now >= at(OUTAGE_END) && caughtUpAt === undefined && world.lostDutyRecords() === 0) {
        caughtUpAt = now;
      }
      await world.sim.advance(STEP_MS);
    }

    const during = world.toggles.filter((toggle) => outageToggles.has(toggle) && toggle.answeredAt !== undefined);
    const latencies = during.map((toggle) => (toggle.answeredAt as number) - toggle.at);
    const count = (map: Map<string, number>) => [...map.values()].reduce((sum, value) => sum + value, 0);
    return {
      implementation: options.implementation,
      players: options.players,
      dutyChanges: count(world.gameOns) + count(world.gameOffs),
      lostDutyRecords: world.lostDutyRecords(),
      caughtUpAfterS: caughtUpAt === undefined ? undefined : (caughtUpAt - at(OUTAGE_END)) / 1000,
      togglesDuringOutage: outageToggles.size,
      refusedDuringOutage: during.filter((toggle) => toggle.outcome?.ok === false).length,
      toggleP50DuringOutageMs: percentile(latencies, 0.5),
      toggleP99DuringOutageMs: percentile(latencies, 0.99),
      requestsDuringOutage: requestsAtRecovery - requestsAtOutage,
      requests: world.traffic.requests,
      tooManyRequests: world.traffic.count(429),
    };
  } finally {
    await world.close();
  }
}
