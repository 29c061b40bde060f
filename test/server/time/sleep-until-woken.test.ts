import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleepUntilWoken } from '../../../server/kernel/time.js';
import { elapse, useVirtualTime } from '../support/virtual-runtime.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeEach(useVirtualTime);
afterEach(() => {
  vi.useRealTimers();
});

describe('a sleep that a wake cuts short', () => {
  it('ends when the sleep does, and lets go of the wake stream', async () => {
    const wake$ = new Subject<void>();
    const ended: string[] = [];
    sleepUntilWoken(sleep, 1_000, wake$).subscribe({
      next: (how) => ended.push(how),
      complete: () => ended.push('done'),
    });
    await elapse(999);
    expect(ended).toEqual([]);
    await elapse(1);
    expect(ended).toEqual(['slept', 'done']);
    expect(wake$.observed).toBe(false);
  });

  it('ends at the wake, before the sleep', async () => {
    const wake$ = new Subject<void>();
    const ended: string[] = [];
    sleepUntilWoken(sleep, 60_000, wake$).subscribe((how) => ended.push(how));
    await elapse(10);
    wake$.next();
    expect(ended).toEqual(['woken']);
    await elapse(60_000);
    expect(ended).toEqual(['woken']);
  });

  it('without a wake stream, only sleeps', async () => {
    const ended: string[] = [];
    sleepUntilWoken(sleep, 500, undefined).subscribe((how) => ended.push(how));
    await elapse(500);
    expect(ended).toEqual(['slept']);
  });
});
