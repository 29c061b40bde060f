import { BenchWorld } from '../support/bench-world.js';
import { population } from '../support/population.js';
import { meterThreadHold, type ThreadHoldResult } from '../support/thread-hold.js';

export interface CrashRecoveryOptions {
  resource: string;
  /** Players on duty when the server dies. */
  openDuties: number;
  latencyMs: number;
}

export interface CrashRecoveryResult {
  openDuties: number;
  /** Seconds of game time from the new server's start until the panel had every open duty ended (undefined: never). */
  endedAfterS: number | undefined;
  stillOpen: number;
  threadHold: ThreadHoldResult;
}

const MINUTE = 60_000;

/**
 * `openDuties` department members go on duty; the server process dies without onResourceStop (sim.kill()), and a
 * new one starts on the same KVP a minute later with nobody online: the bridge finds the duties the dead run left
 * open and ends them at the panel. Meters how long it holds the thread from the new start until they are ended.
 */
export async function runCrashRecovery(options: CrashRecoveryOptions): Promise<CrashRecoveryResult> {
  const count = options.openDuties;
  const users = population(count, { memberEvery: 1 });
  const world = await BenchWorld.start({
    resource: options.resource,
    users,
    clock: 'virtual',
    latencyMs: options.latencyMs,
  });
  const open = () => world.panel.controls.sessions().filter((session) => session.endedAt === null).length;
  try {
    for (let index = 0; index < count; index++) await world.join(index);
    await world.sim.until(() => world.profileLoadedAt.size === count, 20 * MINUTE, 'every profile');
    // Below the panel's 200 a minute: a duty call that waits for the budget longer than the bridge's timeout is
    // refused (panel_unavailable), and this run needs every one on duty.
    for (let index = 0; index < count; index++) {
      if (!world.goOnDuty(index)) throw new Error(`bench: player ${index} could not ask to go on duty`);
      await world.sim.advance(400);
    }
    const answered = () => world.toggles.every((toggle) => toggle.answeredAt !== undefined);
    await world.sim.until(answered, 20 * MINUTE, 'every duty answer');
    if (open() !== count) {
      const refused = world.toggles.flatMap((toggle) => (toggle.outcome?.ok ? [] : [JSON.stringify(toggle.outcome)]));
      throw new Error(`bench: ${open()} of ${count} duties open before the crash; refused: ${refused.slice(0, 3)}`);
    }

    await world.sim.kill();
    await world.sim.advance(MINUTE);
    const meter = meterThreadHold(world.sim, `crash recovery of ${count} open duties`);
    let threadHold: ThreadHoldResult;
    let endedAt: number | undefined;
    const startedAt = world.now;
    try {
      await world.restart();
      await world.sim.until(() => open() === 0, 20 * MINUTE, 'the open duties to end');
      endedAt = world.now;
      // What the recovery set off after the last off (records removed, the ledger written) counts too.
      await world.sim.advance(10_000);
    } finally {
      threadHold = await meter.stop();
    }
    world.sim.assertNoErrors();
    return {
      openDuties: count,
      endedAfterS: endedAt === undefined ? undefined : (endedAt - startedAt) / 1000,
      stillOpen: open(),
      threadHold,
    };
  } finally {
    await world.close();
  }
}
