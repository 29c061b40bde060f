import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../server/kernel/log.js';
import { LONGEST_WAIT_MS } from '../../../../server/kernel/time.js';
import { RateBudget } from '../../../../server/panel/rate-budget.js';
import { CappedWaits, readRateLimitHeaders } from '../../../../server/panel/rate-limit-headers.js';

const A_DAY = new Headers({ 'RateLimit-Policy': '200;w=86400', 'RateLimit-Limit': '200', 'RateLimit-Remaining': '0' });

function budgetSeeing(headers: Headers) {
  let now = 0;
  const lines: string[] = [];
  const capped = new CappedWaits(createLogger({ print: (line) => lines.push(line) }));
  const budget = new RateBudget({ now: () => now, fallback: { limit: 200, windowMs: 60_000 } });
  return {
    budget,
    lines,
    at: (time: number) => {
      now = time;
    },
    answer: (ticket: number) => budget.observe(ticket, capped.observation(readRateLimitHeaders(headers, 0), headers)),
  };
}

describe('a wait the rate-limit policy implies', () => {
  it('a spent window of a day without a reset holds a duty call for the cap, and is told once', () => {
    const { budget, lines, at, answer } = budgetSeeing(A_DAY);
    answer(budget.take('immediate'));
    // The window the first request opened ends; the next is opened under the learned policy of a day.
    at(61_000);
    answer(budget.take('immediate'));

    expect(budget.snapshot()).toMatchObject({ windowMs: 86_400_000, remaining: 0 });
    expect(budget.nextSendAt('immediate') - 61_000).toBeLessThanOrEqual(LONGEST_WAIT_MS);
    expect(budget.nextSendAt('paced') - 61_000).toBeLessThanOrEqual(LONGEST_WAIT_MS);
    expect(lines.filter((line) => line.includes('RateLimit-Policy: 200;w=86400'))).toEqual([
      expect.stringMatching(/WARN: .*at most 60 s/),
    ]);
  });

  it('a window of a day with requests left does not spread a waiting player over the day', () => {
    const headers = new Headers(A_DAY);
    headers.set('RateLimit-Remaining', '150');
    const { budget, at, answer } = budgetSeeing(headers);
    answer(budget.take('paced'));
    at(61_000);
    answer(budget.take('paced'));
    for (let sent = 0; sent < 30; sent += 1) budget.take('paced');

    expect(budget.nextSendAt('paced') - 61_000).toBeLessThanOrEqual(LONGEST_WAIT_MS);
  });

  it('leaves a window within the cap as the policy says', () => {
    const headers = new Headers({
      'RateLimit-Policy': '200;w=60',
      'RateLimit-Limit': '200',
      'RateLimit-Remaining': '0',
    });
    const { budget, lines, answer } = budgetSeeing(headers);
    answer(budget.take('immediate'));

    expect(budget.nextSendAt('immediate')).toBe(61_000);
    expect(lines).toEqual([]);
  });
});
