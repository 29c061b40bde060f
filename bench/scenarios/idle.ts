import type { TimerStats } from '../../sim/index.js';
import { BenchWorld } from '../support/bench-world.js';
import { population } from '../support/population.js';
import { meterThreadHold, type ThreadHoldResult } from '../support/thread-hold.js';

export interface IdleOptions {
  resource: string;
  players: number;
  /** Department members who go on duty before the watch (their on-duty revalidation is the bridge's own work). */
  onDuty: number;
  /** How long the full server is watched with nobody acting. */
  watchMs: number;
  latencyMs: number;
}

export interface IdleResult {
  players: number;
  onDuty: number;
  watchS: number;
  /** The bridge's time per 50 ms server frame over the watch: mean (resmon's figure), p99, the longest. */
  frameMeanMs: number;
  /** The mean without the tasks a garbage collection of the simulator's heap ran in. */
  frameMeanWithoutCollectionsMs: number;
  frameP99Ms: number;
  frameMaxMs: number;
  frames: number;
  framesWithBridgeWork: number;
  /** Frames per second whose tick had a timer or ticker waiting, so timer.js walked them (0: it returned at once). */
  ticksWithWorkPerS: number;
  timersFiredPerS: number;
  tickerCallsPerS: number;
  /** Timers and tickers waiting as the watch ended. */
  pendingTimers: number;
  tickers: number;
  /** Panel requests during the watch (the on-duty revalidation, nothing else). */
  requests: number;
  threadHold: ThreadHoldResult;
}

const MINUTE = 60_000;
/** Config.RefreshIntervalMs's default: the on-duty players' revalidation comes this often. */
const REFRESH_INTERVAL_MS = 5 * MINUTE;

const perSecond = (count: number, ms: number) => (count * 1000) / ms;

/**
 * `players` join and load their profile, `onDuty` department members go on duty, and the server is left alone: the
 * bridge's time in each server frame is metered over `watchMs` (resmon's figure), with what its timers did. The
 * panel allows far more than 200 a minute here, so the players load quickly: what is measured is the quiet that
 * follows, which does not depend on the panel's limit.
 */
export async function runIdle(options: IdleOptions): Promise<IdleResult> {
  const users = population(options.players);
  const world = await BenchWorld.start({
    resource: options.resource,
    users,
    clock: 'virtual',
    latencyMs: options.latencyMs,
    limitPerMinute: 100_000,
  });
  try {
    for (let index = 0; index < options.players; index++) await world.join(index);
    await world.sim.until(() => world.profileLoadedAt.size === options.players, 30 * MINUTE, 'every profile');
    const onDuty = users.members
      .flatMap((member, index) => (member.department ? [index] : []))
      .slice(0, options.onDuty);
    for (const index of onDuty) {
      if (!world.goOnDuty(index)) throw new Error(`bench: player ${index} could not ask to go on duty`);
    }
    await world.sim.until(() => onDuty.every((index) => world.isOnDuty(index)), 10 * MINUTE, 'the players on duty');
    // What joining and going on duty left to finish (KVP copies, the first revalidations) is over before the watch.
    await world.sim.advance(REFRESH_INTERVAL_MS + MINUTE);

    const before: TimerStats = world.sim.scriptTimers('bridge');
    const requestsBefore = world.traffic.requests;
    const meter = meterThreadHold(world.sim, `idle, ${options.players} online, ${options.onDuty} on duty`);
    let threadHold: ThreadHoldResult;
    try {
      await world.sim.advance(options.watchMs);
    } finally {
      threadHold = await meter.stop();
    }
    const after = world.sim.scriptTimers('bridge');
    world.sim.assertNoErrors();
    return {
      players: options.players,
      onDuty: options.onDuty,
      watchS: options.watchMs / 1000,
      frameMeanMs: threadHold.frameMeanMs,
      frameMeanWithoutCollectionsMs: threadHold.frameMeanWithoutCollectionsMs,
      frameP99Ms: threadHold.frameP99Ms,
      frameMaxMs: threadHold.frameMaxMs,
      frames: threadHold.frames,
      framesWithBridgeWork: threadHold.framesWithBridgeWork,
      ticksWithWorkPerS: perSecond(after.ticksWithWork - before.ticksWithWork, options.watchMs),
      timersFiredPerS: perSecond(after.timersFired - before.timersFired, options.watchMs),
      tickerCallsPerS: perSecond(after.tickerCalls - before.tickerCalls, options.watchMs),
      pendingTimers: after.pendingTimers,
      tickers: after.tickers,
      requests: world.traffic.requests - requestsBefore,
      threadHold,
    };
  } finally {
    await world.close();
  }
}
