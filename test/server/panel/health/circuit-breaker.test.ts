import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../../server/kernel/log.js';
import { CircuitBreaker } from '../../../../server/panel/panel-health.js';
import { createVirtualRuntime, elapse, settle, useVirtualTime } from '../../support/virtual-runtime.js';

function breakerWith(probe: () => Promise<unknown>) {
  const runtime = createVirtualRuntime();
  return new CircuitBreaker({
    now: runtime.now,
    sleep: runtime.sleep,
    random: runtime.random,
    logger: createLogger({ print: () => {} }),
    probe,
  });
}

beforeEach(useVirtualTime);
afterEach(() => {
  vi.useRealTimers();
});

describe('the circuit breaker', () => {
  it('tells each transition once, and a late subscriber is not told the state it finds', async () => {
    const breaker = breakerWith(async () => {});
    const told: string[] = [];
    breaker.unreachable$.subscribe(() => told.push('unreachable'));
    breaker.recovered$.subscribe(() => told.push('recovered'));

    for (let failure = 0; failure < 5; failure++) breaker.record('unreachable', 'ECONNRESET');
    breaker.unreachable$.subscribe(() => told.push('late unreachable'));
    expect(breaker.isOpen).toBe(true);
    breaker.record('reachable');
    breaker.record('reachable');

    expect(told).toEqual(['unreachable', 'recovered']);
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 0, nextProbeAt: undefined });
    breaker.stop();
  });

  it('holds untilReachable() until the circuit closes, and resolves it at once while closed', async () => {
    const breaker = breakerWith(async () => {});
    let reachable = false;
    await breaker.untilReachable();

    for (let failure = 0; failure < 3; failure++) breaker.record('unreachable');
    void breaker.untilReachable().then(() => (reachable = true));
    await settle();
    expect(reachable).toBe(false);

    breaker.record('reachable');
    await settle();
    expect(reachable).toBe(true);
    breaker.stop();
  });

  it('probes while open, backing off, and stops probing once it closes', async () => {
    const probedAt: number[] = [];
    const breaker = breakerWith(async () => {
      probedAt.push(Math.round(performance.now()));
    });
    const start = Math.round(performance.now());
    for (let failure = 0; failure < 3; failure++) breaker.record('unreachable');
    expect(breaker.snapshot().nextProbeAt).toBeDefined();

    await elapse(30_000);
    // random() = 0.5: three quarters of 1 s, 2 s, 4 s, 8 s, then of the 15 s cap.
    expect(probedAt.map((at) => at - start)).toEqual([750, 2_250, 5_250, 11_250, 22_500]);

    breaker.record('reachable');
    await elapse(60_000);
    expect(probedAt).toHaveLength(5);
    breaker.stop();
  });
});
