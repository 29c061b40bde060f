import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../../server/kernel/time.js';

const POLICY = { baseMs: 1_000, maxMs: 15_000 };

describe('backoff with jitter', () => {
  it('doubles its ceiling per attempt up to the cap', () => {
    const ceilings = [1, 2, 3, 4, 5, 6].map((attempt) => backoffMs(POLICY, attempt, () => 1));
    expect(ceilings).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
  });

  it('waits at random in the upper half of the ceiling', () => {
    expect(backoffMs(POLICY, 3, () => 0)).toBe(2_000);
    expect(backoffMs(POLICY, 3, () => 0.5)).toBe(3_000);
    expect(backoffMs(POLICY, 30, () => 0)).toBe(7_500);
  });
});
