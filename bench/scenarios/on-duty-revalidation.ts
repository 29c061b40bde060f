import { BenchWorld } from '../support/bench-world.js';
import { population } from '../support/population.js';
import { percentile, seededRandom } from '../support/stats.js';

export interface RevalidationOptions {
  implementation: string;
  resource: string;
  players: number;
  onDuty: number;
  /** Config.RefreshIntervalMs of the resource (the bench passes the default). */
  intervalMs: number;
  /** How long the on-duty players are watched once all are on duty. */
  watchMs: number;
  /** On-duty players who lose their department in the panel at a random moment of the watch. */
  removals: number;
  latencyMs: number;
  limitPerMinute: number;
}

export interface RevalidationResult {
  implementation: string;
  players: number;
  onDuty: number;
  intervalMs: number;
  watchMs: number;
  /** Profile requests for on-duty players during the watch (nobody else asks for one then). */
  revalidationRequests: number;
  /** What the watch cost, per on-duty player per hour (players taken off duty by a removal count until then). */
  perOnDutyPlayerPerHour: number;
  /** Share of the panel's limit per minute the revalidation took. */
  budgetShare: number;
  /** Every request of the watch: the revalidation, the `off` calls of the removals, nothing else. */
  requestsDuringWatch: number;
  tooManyRequests: number;
  removals: number;
  /** Removals that ended the duty before the watch ended. */
  removalsEnded: number;
  removalToOffP50S: number | undefined;
  removalToOffP99S: number | undefined;
  removalToOffMaxS: number | undefined;
}

const MINUTE = 60_000;
const STEP_MS = 100;
const CIVILIAN_ROLE = '1187342095671230099';

/**
 * Everyone joins within a minute; the first `onDuty` department members go on duty once their profile arrived.
 * Then, with nobody asking for anything, the bridge's own polling is watched: the requests it spends on on-duty
 * players, and how long a department removed in the panel takes to end the duty.
 */
export async function runOnDutyRevalidation(options: RevalidationOptions): Promise<RevalidationResult> {
  const users = population(options.players);
  const world = await BenchWorld.start({
    resource: options.resource,
    users,
    clock: 'virtual',
    latencyMs: options.latencyMs,
  });
  const random = seededRandom(options.players + 13);
  const onDutyIndexes = users.members
    .flatMap((member, index) => (member.department ? [index] : []))
    .slice(0, options.onDuty);
  try {
    const joinAt = users.members.map((_, index) => world.now + (index * MINUTE) / options.players);
    let joined = 0;
    const asked = new Set<number>();
    const deadline = world.now + 30 * MINUTE;
    // The watch starts once the join storm is over: what it measures is the steady state of a full server.
    // The profile count first: asking 400 clients whether they are on duty is a msgpack round trip each, and is
    // only worth it once every profile is in.
    while (world.profileLoadedAt.size < options.players || onDutyIndexes.some((index) => !world.isOnDuty(index))) {
      if (world.now > deadline) throw new Error('the on-duty players were not all on duty within 30 minutes');
      while (joined < options.players && (joinAt[joined] as number) <= world.now) await world.join(joined++);
      for (const index of onDutyIndexes) {
        if (asked.has(index) || !world.profileLoadedAt.has(index)) continue;
        if (world.goOnDuty(index)) asked.add(index);
      }
      await world.sim.advance(STEP_MS);
    }

    const watchStart = world.now;
    const onDutyChatIds = onDutyIndexes.map((index) => world.chatIdOf(index));
    const profileRequests = () =>
      onDutyChatIds.reduce(
        (sum, chatId) => sum + (world.traffic.byPath?.get(`GET /api/leo/user/${chatId}/departments`) ?? 0),
        0,
      );
    const requestsBefore = profileRequests();
    const allRequestsBefore = world.traffic.requests;
    const removalAt = new Map<number, number>();
    // Spread over the on-duty players and over the watch, leaving an interval at its end for the last one.
    const every = Math.max(1, Math.floor(options.onDuty / options.removals));
    for (const index of onDutyIndexes.filter((_, position) => position % every === 0).slice(0, options.removals)) {
      removalAt.set(index, watchStart + MINUTE + random() * (options.watchMs - MINUTE - options.intervalMs - MINUTE));
    }
    const removed = new Map<number, number>();
    const endedAfter: number[] = [];
    const offsBefore = new Map(onDutyIndexes.map((index) => [index, world.gameOffs.get(world.chatIdOf(index)) ?? 0]));
    while (world.now < watchStart + options.watchMs) {
      for (const [index, at] of removalAt) {
        if (at > world.now || removed.has(index)) continue;
        world.panel.controls.setRoles(world.chatIdOf(index), [CIVILIAN_ROLE]);
        removed.set(index, world.now);
      }
      for (const [index, at] of removed) {
        if (at < 0) continue;
        if ((world.gameOffs.get(world.chatIdOf(index)) ?? 0) > (offsBefore.get(index) ?? 0)) {
          endedAfter.push(world.now - at);
          removed.set(index, -1);
        }
      }
      await world.sim.advance(STEP_MS);
    }

    const revalidationRequests = profileRequests() - requestsBefore;
    // Player-hours on duty during the watch: a removal ends a duty early.
    const removedFor = [...removalAt.values()].reduce((sum, at) => sum + (watchStart + options.watchMs - at), 0);
    const onDutyHours = (options.onDuty * options.watchMs - removedFor) / (60 * MINUTE);
    const seconds = endedAfter.map((ms) => ms / 1000);
    return {
      implementation: options.implementation,
      players: options.players,
      onDuty: options.onDuty,
      intervalMs: options.intervalMs,
      watchMs: options.watchMs,
      revalidationRequests,
      perOnDutyPlayerPerHour: revalidationRequests / onDutyHours,
      budgetShare: revalidationRequests / (options.watchMs / MINUTE) / options.limitPerMinute,
      requestsDuringWatch: world.traffic.requests - allRequestsBefore,
      tooManyRequests: world.traffic.count(429),
      removals: removalAt.size,
      removalsEnded: endedAfter.length,
      removalToOffP50S: percentile(seconds, 0.5),
      removalToOffP99S: percentile(seconds, 0.99),
      removalToOffMaxS: seconds.length > 0 ? Math.max(...seconds) : undefined,
    };
  } finally {
    await world.close();
  }
}
