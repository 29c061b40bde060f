// When the chaos world is quiet enough to check: every fault healed (ChaosWorld.healAll), then until nothing is left
// to happen. Each condition is something the harness can see, or a window the bridge itself documents, never a sleep
// of a guessed length:
// - each running server's outbox is empty (`bridge status`);
// - no duty call is on its way to the panel, and none left lately;
// - no duty-owner record was written lately (Redis's own MONITOR);
// - the servers had the time the bridge gives itself to write again what it holds after Redis comes back
//   (OWNERS_REWRITTEN_WITHIN_MS), counted from the last fault's end;
// - with a server still down, its peers had two liveness periods to take its shifts over.
import { OWNERS_REWRITTEN_WITHIN_MS } from '../../server/community/duty-owners.js';
import type { ChaosWorld } from './chaos-world.js';

/** Nothing sent nor written for this long counts as quiet: more than a claim's first retries. */
const QUIET_MS = 1_000;
const POLL_MS = 100;
const MARGIN_MS = 500;

/** Why the world is not quiet yet; empty once it is. */
export function stillBusy(world: ChaosWorld): string[] {
  const now = Date.now();
  const busy: string[] = [];
  const healedFor = now - world.lastHealAt;
  if (healedFor < OWNERS_REWRITTEN_WITHIN_MS + MARGIN_MS) busy.push(`the last fault ended ${healedFor} ms ago`);
  const someDown = world.sims.some((_, server) => !world.isUp(server));
  const crashedFor = now - world.lastCrashAt;
  if (someDown && crashedFor < 2 * world.options.livenessMs + MARGIN_MS) {
    busy.push(`a server crashed ${crashedFor} ms ago`);
  }
  const inFlight = world.calls.filter((call) => call.status === undefined).length;
  if (inFlight > 0) busy.push(`${inFlight} duty call(s) on their way`);
  const lastCall = Math.max(0, ...world.calls.map((call) => call.sentAtUs / 1000));
  if (now - lastCall < QUIET_MS) busy.push('a duty call left lately');
  if (now - world.history.lastWriteUs / 1000 < QUIET_MS) busy.push('an owner record was written lately');
  if (busy.length > 0) return busy;
  for (const server of world.sims.keys()) {
    if (!world.isUp(server)) continue;
    const pending = world.pendingCalls(server);
    if (pending > 0) busy.push(`server ${server} has ${pending} duty call(s) pending`);
  }
  return busy;
}

/** Resolves once the world is quiet; rejects, saying what still moves, if it is not within `deadlineMs`. */
export async function untilQuiet(world: ChaosWorld, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const busy = stillBusy(world);
    if (busy.length === 0) return;
    if (Date.now() > until) throw new Error(`the world did not settle within ${deadlineMs} ms: ${busy.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
