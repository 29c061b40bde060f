import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../server/panel/rate-budget.js';
import type { RateLimitObservation } from '../../../../server/panel/rate-limit-headers.js';

const CONFIG = { limit: 200, windowMs: 60_000 };

function budgetAt(start = 0, fallback = CONFIG) {
  let now = start;
  const learned: string[] = [];
  const budget = new RateBudget({
    now: () => now,
    fallback,
    onPolicyLearned: (policy) => learned.push(`${policy.limit}/${policy.windowMs}`),
  });
  return {
    budget,
    learned,
    at: (time: number) => {
      now = time;
    },
    /** Takes every request the budget lets leave at this moment, at that pace; returns how many. */
    drain(pace: 'immediate' | 'paced') {
      let sent = 0;
      while (budget.nextSendAt(pace) <= now) {
        budget.take(pace);
        sent += 1;
      }
      return sent;
    },
  };
}

const draft6 = (remaining: number, resetSeconds: number, limit = 200): RateLimitObservation => ({
  form: 'draft-6',
  limit,
  windowMs: 60_000,
  remaining,
  resetInMs: resetSeconds * 1000,
});

describe('the rate budget', () => {
  it("a community's server without its Redis paces only its share of what the panel says is left; duty calls are not held", () => {
    const firstHalfMinute = (share: number) => {
      const { budget, at } = budgetAt();
      budget.setShare(share);
      at(0);
      budget.observe(budget.take('paced'), draft6(100, 60));
      let sent = 1;
      for (let time = 0; time < 30_000; time += 10) {
        at(time);
        while (budget.nextSendAt('paced') <= time) {
          budget.take('paced');
          sent += 1;
        }
      }
      return { sent, duty: budget.nextSendAt('immediate') - 29_990 };
    };
    const alone = firstHalfMinute(1);
    const half = firstHalfMinute(0.5);
    expect(alone.sent).toBeGreaterThanOrEqual(50);
    // The burst a quiet server may send is the same; what follows is spread over half as much.
    expect(half.sent).toBeLessThan(alone.sent * 0.65);
    expect(half.sent).toBeGreaterThan(alone.sent * 0.4);
    expect(half.duty).toBe(0);
  });

  it('without headers, assumes config.lua’s limit: duty calls may use all of it at once, then nothing until the reset', () => {
    const { budget, drain, at } = budgetAt();
    expect(drain('immediate')).toBe(200);
    expect(budget.nextSendAt('immediate')).toBe(61_000);
    at(61_000);
    expect(drain('immediate')).toBe(200);
  });

  it('spreads paced requests over the window after a short burst, and fills the window', () => {
    const { budget, at } = budgetAt();
    const sentAt: number[] = [];
    for (let time = 0; time < 61_000; time += 10) {
      at(time);
      while (budget.nextSendAt('paced') <= time) {
        budget.take('paced');
        sentAt.push(time);
      }
    }
    // A burst of about a tenth of the limit when the bridge was quiet.
    const burst = sentAt.filter((time) => time === 0).length;
    expect(burst).toBeGreaterThanOrEqual(15);
    expect(burst).toBeLessThanOrEqual(20);
    expect(sentAt.length).toBeGreaterThanOrEqual(0.95 * 200);
    expect(sentAt.length).toBeLessThanOrEqual(200);
    // Spread, not dumped: the last fifth of the window still gets requests.
    expect(sentAt.filter((time) => time > 48_000).length).toBeGreaterThan(30);
  });

  it('keeps the last request of each window for a duty call: paced work stops one short', () => {
    const { budget, at } = budgetAt();
    for (let i = 0; i < 199; i++) budget.take('immediate');
    at(59_000);
    expect(budget.snapshot().remaining).toBe(1);
    expect(budget.nextSendAt('paced')).toBe(61_000);
    expect(budget.nextSendAt('immediate')).toBe(59_000);
  });

  it('learns the real window from the headers and counts requests still in flight against it', () => {
    const { budget, at } = budgetAt();
    const first = budget.take('immediate');
    budget.take('immediate');
    budget.take('immediate');
    at(100);
    // The panel counted the first request: 199 left then; the two sent after it will count too.
    budget.observe(first, draft6(199, 60));
    expect(budget.snapshot()).toMatchObject({ remaining: 197, resetAt: 60_100, resetKnown: true });
  });

  it('ignores an answer that arrives after the answer to a later request', () => {
    const { budget, at } = budgetAt();
    const first = budget.take('immediate');
    const second = budget.take('immediate');
    at(50);
    budget.observe(second, draft6(10, 30));
    budget.observe(first, draft6(11, 30));
    expect(budget.snapshot().remaining).toBe(10);
  });

  it('follows headers that disagree with config.lua, and says so once', () => {
    const { budget, learned, drain, at } = budgetAt();
    budget.observe(budget.take('immediate'), draft6(49, 60, 50));
    expect(learned).toEqual(['50/60000']);
    expect(budget.snapshot()).toMatchObject({ limit: 50, limitSource: 'panel', remaining: 49 });
    expect(drain('immediate')).toBe(49);
    at(60_000);
    expect(drain('immediate')).toBe(50);
    budget.observe(budget.take('immediate'), draft6(40, 60, 50));
    expect(learned).toHaveLength(1);
  });

  it('follows a panel more generous than config.lua', () => {
    const { budget, drain } = budgetAt(0, { limit: 100, windowMs: 60_000 });
    budget.observe(budget.take('immediate'), draft6(499, 60, 500));
    expect(drain('immediate')).toBe(499);
  });

  it('treats a reset in the past as a window that is over: the count is stale, nothing stalls', () => {
    const { budget, at, drain } = budgetAt();
    at(10_000);
    budget.observe(budget.take('immediate'), { form: 'legacy', remaining: 0, resetInMs: -30_000 });
    // Not "0 left until a reset that already happened": the budget starts over at the nominal rate.
    expect(budget.nextSendAt('immediate')).toBe(10_000);
    expect(budget.snapshot()).toMatchObject({ remaining: 200, resetKnown: false });
    const burst = drain('paced');
    expect(burst).toBeGreaterThanOrEqual(15);
    expect(burst).toBeLessThanOrEqual(20);
  });

  it('believes the remaining count of a panel that sends no reset, and keeps its own window', () => {
    const { budget, at, drain } = budgetAt();
    budget.observe(budget.take('immediate'), { form: 'legacy', remaining: 2 });
    expect(drain('immediate')).toBe(2);
    at(60_999);
    expect(drain('immediate')).toBe(0);
    at(61_000);
    expect(drain('immediate')).toBe(200);
  });

  it('follows a panel that forgot the window (it restarted): more is left than the bridge counted', () => {
    const { budget, at, drain } = budgetAt();
    for (let i = 0; i < 150; i++) budget.take('immediate');
    at(20_000);
    expect(budget.snapshot().remaining).toBe(50);
    // The panel's counter started over with this request: a fresh window of 60 s.
    budget.observe(budget.take('immediate'), draft6(199, 60));
    expect(budget.snapshot()).toMatchObject({ remaining: 199, resetAt: 80_000 });
    expect(drain('immediate')).toBe(199);
  });

  it('after a 429 despite the estimate, sends nothing until Retry-After, then starts a fresh window', () => {
    const { budget, at } = budgetAt();
    const ticket = budget.take('immediate');
    at(1_000);
    budget.refused(ticket, { form: 'draft-6', limit: 200, remaining: 0, resetInMs: 30_000, retryAfterMs: 30_000 });
    expect(budget.nextSendAt('immediate')).toBe(31_000);
    expect(budget.snapshot()).toMatchObject({ remaining: 0, blockedUntil: 31_000 });
    at(31_000);
    expect(budget.nextSendAt('immediate')).toBe(31_000);
    expect(budget.snapshot()).toMatchObject({ remaining: 200, blockedUntil: undefined });
  });

  it('after a 429 without Retry-After or reset, waits one window rather than hammering', () => {
    const { budget, at } = budgetAt();
    const ticket = budget.take('immediate');
    at(500);
    budget.refused(ticket, { form: 'none' });
    expect(budget.nextSendAt('immediate')).toBe(60_500);
  });

  it('never waits less than a slot after a 429 that says to retry at once', () => {
    const { budget, at } = budgetAt();
    const ticket = budget.take('immediate');
    at(500);
    budget.refused(ticket, { form: 'draft-6', retryAfterMs: 0 });
    expect(budget.nextSendAt('immediate')).toBe(800);
  });
});
