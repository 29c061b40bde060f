// The injected sleep cannot be cancelled, and in FXServer every waiting timer costs a check in every server frame
// (timer.js walks them all): the on-duty revalidation waits on one timer for every account, set for the earliest
// look. Duties that come and go leave no wait of their own behind, and a stopped revalidation asks for none.
import { expect, it } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { OnDutyRevalidation } from '../../../server/profiles/refresh-policy.js';

const MINUTE = 60_000;

/** A revalidation whose sleeps never end: kept, as the runtime keeps a timer that has not fired. */
function revalidationWith(pending: number[], now = () => 0) {
  return new OnDutyRevalidation({
    intervalMs: 5 * MINUTE,
    now,
    sleep: (ms) => {
      pending.push(ms);
      return new Promise<void>(() => {});
    },
    freshForMs: () => 0,
    refresh: async () => {},
    logger: createLogger({ print: () => {} }),
  });
}

it('waits on one timer however many players go on and off duty', () => {
  const pending: number[] = [];
  let clock = 0;
  const revalidation = revalidationWith(pending, () => clock);
  for (let src = 1; src <= 200; src++) {
    clock += 1000;
    revalidation.dutyChanged(src, String(100_000_000_000_000_000n + BigInt(src)), true);
    if (src % 2 === 0) revalidation.dutyChanged(src, String(100_000_000_000_000_000n + BigInt(src)), false);
  }
  expect(revalidation.size).toBe(100);
  expect(pending).toEqual([5 * MINUTE]);
});

it('asks for no timer once stopped', () => {
  const pending: number[] = [];
  const revalidation = revalidationWith(pending);
  revalidation.stop();
  revalidation.dutyChanged(7, '284619375016482817', true);
  expect(revalidation.size).toBe(0);
  expect(pending).toEqual([]);
});
