// When the chaos world is quiet enough to check: every fault healed (ChaosWorld.healAll), then until nothing is left
// to happen. Each condition is read from Redis, from the servers' `bridge status` or from the record, never assumed
// from a sleep of a guessed length:
// - every running server renewed its liveness in Redis since the last fault ended, so it has seen Redis back and
//   settled again what it holds (a renewal after a gap claims everything again);
// - every server still down was taken out of the community's liveness by a peer, which then ends its shifts (unless a
//   running copy of its folder took its identity), and no takeover is left in Redis: each taker handed on every duty
//   of the server it took out;
// - each running server's outbox is empty and the `duty owners` line of `bridge status` says `settled` (no claim being
//   written, no `on` to send again, no check of every claim still to come, no takeover under way);
// - no duty call is on its way to the panel, and nothing was sent or written to an owner record for a moment (what
//   one server just did may still start work on another).
import type { ChaosWorld } from './chaos-world.js';

const QUIET_MS = 1_000;
const POLL_MS = 100;

/** Why the world is not quiet yet; empty once it is. */
export async function stillBusy(world: ChaosWorld): Promise<string[]> {
  const now = Date.now();
  const busy: string[] = [];
  const inFlight = world.calls.filter((call) => call.status === undefined).length;
  if (inFlight > 0) busy.push(`${inFlight} duty call(s) on their way`);
  const lastCall = Math.max(0, ...world.calls.map((call) => call.sentAtUs / 1000));
  if (now - lastCall < QUIET_MS) busy.push('a duty call left lately');
  if (now - world.history.lastWriteUs / 1000 < QUIET_MS) busy.push('an owner record was written lately');
  if (busy.length > 0) return busy;

  const renewed = await world.renewals();
  const running = new Set(
    [...world.sims.keys()].filter((server) => world.isUp(server)).map((server) => world.identityOf(server)),
  );
  for (const server of world.sims.keys()) {
    const identity = world.identityOf(server);
    if (!world.isUp(server)) {
      // A copy of its folder that started while it died took its identity, as its own restart would (seed 1004:
      // copyFolder(2), crash(2)): that identity lives on, and nothing is left to take out.
      if (identity !== undefined && renewed.has(identity) && !running.has(identity)) {
        busy.push(`server ${server} is down but not taken out yet`);
      }
      continue;
    }
    const at = identity === undefined ? undefined : renewed.get(identity);
    if (at === undefined || at < world.lastHealAt) busy.push(`server ${server} has not renewed since the last fault`);
  }
  const takeovers = await world.pendingTakeovers();
  if (takeovers.length > 0) busy.push(`server(s) ${takeovers.join(', ')} taken out, not all handed on yet`);
  if (busy.length > 0) return busy;

  for (const server of world.sims.keys()) {
    if (!world.isUp(server)) continue;
    const { pendingCalls, community } = world.status(server);
    if (pendingCalls > 0) busy.push(`server ${server} has ${pendingCalls} duty call(s) pending`);
    if (community !== 'settled') busy.push(`server ${server}'s duty owners are ${community}`);
  }
  return busy;
}

/** Resolves once the world is quiet; rejects, saying what still moves, if it is not within `deadlineMs`. */
export async function untilQuiet(world: ChaosWorld, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  let said = '';
  for (;;) {
    const busy = await stillBusy(world);
    if (busy.join('; ') !== said) {
      said = busy.join('; ');
      world.note(`quiet? ${said || 'yes'}`);
    }
    if (busy.length === 0) return;
    if (Date.now() > until) throw new Error(`the world did not settle within ${deadlineMs} ms: ${busy.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
