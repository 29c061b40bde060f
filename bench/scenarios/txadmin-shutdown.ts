import { TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS, TXADMIN_MONITOR, TxAdmin } from '../../sim/index.js';
import { BenchWorld } from '../support/bench-world.js';
import { population } from '../support/population.js';

export interface TxAdminShutdownOptions {
  resource: string;
  /** Players on duty when txAdmin stops the server. */
  onDuty: number;
  latencyMs: number;
  limitPerMinute: number;
  /**
   * How long after the last player went on duty the notice comes: past the panel's window, a fresh window; at once,
   * the window the `on` calls spent.
   */
  noticeAfterMs: number;
}

export interface TxAdminShutdownResult {
  onDuty: number;
  delayMs: number;
  limitPerMinute: number;
  noticeAfterMs: number;
  /** Shifts the panel had ended when txAdmin killed the process, and the last of them (ms after the notice). */
  endedInTime: number;
  lastEndedAfterMs: number | undefined;
  /** Shifts ended by the next start (the `off` calls kept in KVP), and how long after its start the last one was. */
  endedByNextStart: number;
  nextStartEndedAllAfterS: number | undefined;
  /** `off` calls the panel took in all, before and after the restart: one per shift means none was sent twice. */
  offsAccepted: number;
  tooManyRequests: number;
}

const MINUTE = 60_000;

/**
 * `onDuty` department members are on duty when txAdmin sends its shutdown notice with its default delay (5 s), and
 * kills the process after it; a new one starts on the same KVP. Counts the shifts the panel ended within the delay,
 * against a panel allowing `limitPerMinute`, and what the next start ended.
 */
export async function runTxAdminShutdown(options: TxAdminShutdownOptions): Promise<TxAdminShutdownResult> {
  const users = population(options.onDuty, { memberEvery: 1 });
  const world = await BenchWorld.start({
    resource: options.resource,
    users,
    clock: 'virtual',
    latencyMs: options.latencyMs,
    limitPerMinute: options.limitPerMinute,
    resources: [{ dir: TXADMIN_MONITOR, name: 'monitor' }],
  });
  const sessions = () => world.panel.controls.sessions();
  const open = () => sessions().filter((session) => session.endedAt === null).length;
  try {
    for (let index = 0; index < options.onDuty; index++) await world.join(index);
    await world.sim.until(() => world.profileLoadedAt.size === options.onDuty, 30 * MINUTE, 'every profile');
    // Below the panel's limit: an `on` that waits for the budget longer than the bridge's timeout is refused.
    for (let index = 0; index < options.onDuty; index++) {
      if (!world.goOnDuty(index)) throw new Error(`bench: player ${index} could not ask to go on duty`);
      await world.sim.advance((MINUTE / options.limitPerMinute) * 2);
    }
    await world.sim.until(() => open() === options.onDuty, 30 * MINUTE, 'every duty open at the panel');
    await world.sim.advance(options.noticeAfterMs);

    const noticeAt = world.now;
    const txAdmin = new TxAdmin(world.sim);
    await txAdmin.shutdown({ delay: TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS });
    const ended = sessions().filter((session) => session.endedAt !== null);
    const endedInTime = ended.length;
    const lastEnded = Math.max(...ended.map((session) => Date.parse(session.endedAt as string)));

    const startedAt = world.now;
    await world.restart();
    await world.sim.until(() => open() === 0, 30 * MINUTE, 'the kept offs to be delivered');
    const allEndedAt = world.now;
    await world.sim.advance(MINUTE);
    const offsAccepted = world.panel.controls
      .requests()
      .filter((request) => request.path === '/api/leo/duty/off' && request.status === 200).length;
    world.sim.assertNoErrors();
    return {
      onDuty: options.onDuty,
      delayMs: TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS,
      limitPerMinute: options.limitPerMinute,
      noticeAfterMs: options.noticeAfterMs,
      endedInTime,
      lastEndedAfterMs: endedInTime > 0 ? lastEnded - noticeAt : undefined,
      endedByNextStart: options.onDuty - endedInTime,
      nextStartEndedAllAfterS: (allEndedAt - startedAt) / 1000,
      offsAccepted,
      tooManyRequests: world.traffic.count(429),
    };
  } finally {
    await world.close();
  }
}
