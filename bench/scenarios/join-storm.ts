import { BenchWorld } from '../support/bench-world.js';
import { population } from '../support/population.js';
import { percentile, seededRandom } from '../support/stats.js';
import { meterThreadHold, type ThreadHoldResult } from '../support/thread-hold.js';

export interface StormOptions {
  /** `bridge` or `naive`: only for the report. */
  implementation: string;
  resource: string;
  players: number;
  clock: 'virtual' | 'real';
  latencyMs: number;
  /** The panel's limit per minute, for the floor. */
  limitPerMinute: number;
  /** Give up waiting for the last profile after this long (the naive baseline may never get there). */
  capMs: number;
  /** The players join evenly over this span (default one minute). */
  arrivalSpanMs?: number;
  /** Config.RefreshIntervalMs of the resource: a profile read again at least this long after the last is a refresh. */
  refreshIntervalMs: number;
  /** The toggles on the quiet server after the storm, and the time between them (default 20, 2 s). */
  idleToggles?: { count: number; everyMs: number };
  /**
   * Meter how long the resource holds the server's thread during the storm, and afterwards (the storm's figures
   * taken) during a restart of the resource with every player online (bench/support/thread-hold.ts).
   */
  threadHold?: boolean;
}

export interface StormResult {
  implementation: string;
  players: number;
  clock: 'virtual' | 'real';
  requests: number;
  tooManyRequests: number;
  /** Seconds from the first join until every player had their profile (undefined: not within the cap). */
  allProfilesAfterS: number | undefined;
  profilesLoaded: number;
  /** players / limit per minute, in seconds: no bridge can do better. */
  floorS: number;
  /**
   * Requests sent in the seconds when requests waited in the bridge's queues (`bridge status`), against what the
   * budget allowed then; undefined for the naive baseline (no queue) or when nothing waited for a whole minute.
   */
  budgetUse: number | undefined;
  toggles: number;
  toggleP50Ms: number | undefined;
  toggleP99Ms: number | undefined;
  togglesUnanswered: number;
  /** The same toggles on the quiet server after the storm: the panel's latency as the game sees it, no queueing. */
  idleToggleP50Ms: number | undefined;
  idleToggleP99Ms: number | undefined;
  /** Duty changes the game made (on and off). */
  dutyChanges: number;
  /**
   * Profiles read again a whole refresh interval or more after their last read: players on duty revalidated in the
   * background (virtual runs; 0 over loopback, where the bench does not see each request).
   */
  refreshes: number;
  lostDutyRecords: number;
  requestsPerSession: number;
  /** With `threadHold`: the storm, and the restart of the resource once the storm is over. */
  threadHold?: { storm: ThreadHoldResult; restart: ThreadHoldResult };
}

const STEP_MS = 50;

/**
 * `players` join within one minute (a server restart). Each client asks for its profile by itself; a quarter of
 * the department members go on duty within a minute of getting theirs, and half of those go off duty again a
 * minute or two later, so duty changes happen while the storm is still going.
 */
export async function runJoinStorm(options: StormOptions): Promise<StormResult> {
  const users = population(options.players);
  const world = await BenchWorld.start({
    resource: options.resource,
    users,
    clock: options.clock,
    latencyMs: options.latencyMs,
  });
  const random = seededRandom(options.players);
  const start = world.now;
  const span = options.arrivalSpanMs ?? 60_000;
  const joinAt = users.members.map((_, index) => start + (index * span) / options.players);
  const actions: Array<{ at: number; run: () => void }> = [];
  const scheduled = new Set<number>();
  let joined = 0;
  let allLoadedAt: number | undefined;
  let lastSample = start;
  let sentAtSample = 0;
  let backlogMs = 0;
  let sentWhileBacklogged = 0;
  const stormToggles = new Set<object>();
  const stormMeter = options.threadHold
    ? meterThreadHold(world.sim, `the ${options.players}-player join storm`)
    : undefined;

  try {
    while (world.now - start < options.capMs) {
      while (joined < options.players && (joinAt[joined] as number) <= world.now) await world.join(joined++);
      for (const [index, loadedAt] of world.profileLoadedAt) {
        if (scheduled.has(index)) continue;
        scheduled.add(index);
        if (!users.members[index]?.department || random() >= 0.25) continue;
        const offAfter = random() < 0.5 ? 60_000 + random() * 60_000 : undefined;
        actions.push({
          at: loadedAt + random() * 60_000,
          run: () => {
            if (!world.goOnDuty(index) || offAfter === undefined) return;
            actions.push({ at: world.now + offAfter, run: () => world.isOnDuty(index) && world.goOffDuty(index) });
          },
        });
      }
      const due = actions.filter((action) => action.at <= world.now);
      for (const action of due) {
        actions.splice(actions.indexOf(action), 1);
        const before = world.toggles.length;
        action.run();
        if (allLoadedAt === undefined) for (const toggle of world.toggles.slice(before)) stormToggles.add(toggle);
      }
      if (allLoadedAt === undefined && world.profileLoadedAt.size === options.players) allLoadedAt = world.now;
      if (world.now - lastSample >= 1_000) {
        // Budget use counts only the seconds in which requests were waiting in the bridge's queues.
        const waiting = world.queuedRequests();
        const sent = world.traffic.requests;
        if (waiting !== undefined && waiting > 0) {
          backlogMs += world.now - lastSample;
          sentWhileBacklogged += sent - sentAtSample;
        }
        lastSample = world.now;
        sentAtSample = sent;
      }
      const settled = world.toggles.every((toggle) => toggle.answeredAt !== undefined);
      if (allLoadedAt !== undefined && actions.length === 0 && settled) break;
      await world.sim.advance(STEP_MS);
    }
    const stormHold = await stormMeter?.stop();
    // On the quiet server: toggles of players who have their profile, one at a time.
    const idle: object[] = [];
    const { count: idleCount, everyMs } = options.idleToggles ?? { count: 20, everyMs: 2_000 };
    if (allLoadedAt !== undefined) {
      const members = [...users.members.keys()].filter((index) => users.members[index]?.department);
      for (const index of members.slice(0, idleCount)) {
        const before = world.toggles.length;
        if (world.isOnDuty(index)) world.goOffDuty(index);
        else world.goOnDuty(index);
        idle.push(...world.toggles.slice(before));
        await world.sim.advance(everyMs);
      }
    }
    // Let the last calls land before counting what the panel recorded.
    await world.sim.advance(options.clock === 'real' ? 3_000 : 10_000);
    const idleLatencies = world.toggles
      .filter((toggle) => idle.includes(toggle) && toggle.answeredAt !== undefined)
      .map((toggle) => (toggle.answeredAt as number) - toggle.at);
    const count = (map: Map<string, number>) => [...map.values()].reduce((sum, value) => sum + value, 0);

    const during = world.toggles.filter((toggle) => stormToggles.has(toggle) && toggle.answeredAt !== undefined);
    const latencies = during.map((toggle) => (toggle.answeredAt as number) - toggle.at);
    const requests = world.traffic.requests;
    const result: StormResult = {
      implementation: options.implementation,
      players: options.players,
      clock: options.clock,
      requests,
      tooManyRequests: world.traffic.count(429),
      allProfilesAfterS: allLoadedAt === undefined ? undefined : (allLoadedAt - start) / 1000,
      profilesLoaded: world.profileLoadedAt.size,
      floorS: (options.players / options.limitPerMinute) * 60,
      budgetUse:
        backlogMs >= 60_000 ? sentWhileBacklogged / ((backlogMs / 60_000) * options.limitPerMinute) : undefined,
      toggles: during.length,
      toggleP50Ms: percentile(latencies, 0.5),
      toggleP99Ms: percentile(latencies, 0.99),
      togglesUnanswered: world.toggles.filter((toggle) => toggle.answeredAt === undefined).length,
      idleToggleP50Ms: percentile(idleLatencies, 0.5),
      idleToggleP99Ms: percentile(idleLatencies, 0.99),
      dutyChanges: count(world.gameOns) + count(world.gameOffs),
      refreshes: (world.traffic.repeats ?? []).filter(
        ({ path, sincePreviousMs }) =>
          path.startsWith('GET ') && path.endsWith('/departments') && sincePreviousMs >= options.refreshIntervalMs,
      ).length,
      lostDutyRecords: world.lostDutyRecords(),
      requestsPerSession: requests / options.players,
    };
    if (stormHold) result.threadHold = { storm: stormHold, restart: await restartWithEveryoneOnline(world) };
    return result;
  } finally {
    await world.close();
  }
}

/** The resource restarts with every player online: each client asks for its profile again. */
async function restartWithEveryoneOnline(world: BenchWorld): Promise<ThreadHoldResult> {
  const online = world.sim.players.length;
  const arrived = world.profileArrivals;
  const meter = meterThreadHold(world.sim, `a restart of the resource with ${online} players online`);
  let hold: ThreadHoldResult;
  try {
    if (!(await world.sim.restartResource('bridge'))) throw new Error('bench: the bridge did not start again');
    await world.sim.until(() => world.profileArrivals - arrived >= online, 10 * 60_000, 'every profile again');
    // What the restart set off after the last profile (a queued refresh, the kept state written) counts too.
    await world.sim.advance(10_000);
  } finally {
    hold = await meter.stop();
  }
  if (hold.tasks === 0) throw new Error('bench: the restart ran nothing of the bridge');
  return hold;
}
