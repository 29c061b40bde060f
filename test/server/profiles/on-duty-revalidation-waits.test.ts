// The injected sleep cannot be cancelled: a duty that ended leaves its poll's wait pending until the interval is over
// (five minutes by default). That wait must hold nothing of the poll, or every duty ended in the last interval keeps
// its whole subscription chain, and with it the revalidation, alive.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createLogger } from '../../../server/log/logger.js';
import { OnDutyRevalidation } from '../../../server/profiles/on-duty-revalidation.js';

function fullGc(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** In a function of its own: a suspended frame that still held the revalidation would keep it alive. */
function endedDuty(pending: Promise<void>[]): WeakRef<OnDutyRevalidation> {
  const revalidation = new OnDutyRevalidation({
    intervalMs: 300_000,
    // A sleep that never ends, kept by the test as the runtime keeps a timer that has not fired.
    sleep: () => {
      const wait = new Promise<void>(() => {});
      pending.push(wait);
      return wait;
    },
    freshForMs: () => 0,
    refresh: async () => {},
    logger: createLogger({ print: () => {} }),
  });
  revalidation.dutyChanged(7, '284619375016482817', true);
  revalidation.dutyChanged(7, '284619375016482817', false);
  return new WeakRef(revalidation);
}

it('holds nothing of a poll whose duty ended while its wait is still pending', async () => {
  const pending: Promise<void>[] = [];
  const revalidation = endedDuty(pending);
  // A WeakRef holds its target until the job that made it ends.
  await new Promise((resolve) => setImmediate(resolve));
  fullGc();
  expect(pending).toHaveLength(1);
  expect(revalidation.deref()).toBeUndefined();
});
