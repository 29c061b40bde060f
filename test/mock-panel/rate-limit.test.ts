import { afterEach, describe, expect, it } from 'vitest';
import type { StandardHeadersDraft } from '../../mock-panel';
import { departmentsPath, ErrorBodySchema } from '../../shared/contract';
import { TWO_DEPARTMENTS } from './support/demo-users';
import { createFakeClock } from './support/fake-clock';
import { bodyOf, inProcess, type RunningPanel, TRANSPORTS } from './support/panel-transports';

const LIMIT = 3;
const WINDOW_MS = 10_000;

/** What a client learns from one answer, read the way each header style spells it. */
function budgetOf(response: Response, style: StandardHeadersDraft) {
  const header = (name: string) => response.headers.get(name);
  if (style === 'draft-6') {
    return { remaining: Number(header('ratelimit-remaining')), reset: Number(header('ratelimit-reset')) };
  }
  const combined = header('ratelimit') ?? '';
  const pattern = style === 'draft-7' ? /remaining=(\d+), reset=(\d+)$/ : /; r=(\d+); t=(\d+)$/;
  const [, remaining, reset] = pattern.exec(combined) ?? [];
  return { remaining: Number(remaining), reset: Number(reset) };
}

let running: RunningPanel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe.each(TRANSPORTS)('the rate limit, $name', (transport) => {
  describe.each(['draft-6', 'draft-7', 'draft-8'] as const)('with %s headers', (style) => {
    it('counts down, answers 429 with Retry-After when spent, and resets with the window', async () => {
      const clock = createFakeClock();
      const panel = await transport.start({
        now: clock.now,
        rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, standardHeaders: style },
      });
      running = panel;
      const ask = () => panel.client.get(departmentsPath(TWO_DEPARTMENTS));

      const first = await ask();
      expect(first.status).toBe(200);
      expect(budgetOf(first, style)).toEqual({ remaining: 2, reset: 10 });
      clock.advance(4_000);
      expect(budgetOf(await ask(), style)).toEqual({ remaining: 1, reset: 6 });
      expect(budgetOf(await ask(), style)).toEqual({ remaining: 0, reset: 6 });

      const refused = await ask();
      expect(refused.status).toBe(429);
      expect((await bodyOf(refused, ErrorBodySchema)).error).toBe('rate_limited');
      expect(refused.headers.get('retry-after')).toBe('6');
      expect(budgetOf(refused, style)).toEqual({ remaining: 0, reset: 6 });

      clock.advance(6_000);
      const afterReset = await ask();
      expect(afterReset.status).toBe(200);
      expect(budgetOf(afterReset, style)).toEqual({ remaining: 2, reset: 10 });
    });
  });
});

describe('rate-limit headers, spelled as express-rate-limit spells them', () => {
  const start = Date.UTC(2025, 0, 1, 12, 0, 0);

  async function firstAnswer(standardHeaders: StandardHeadersDraft | false, legacyHeaders = true) {
    running = await inProcess.start({
      now: createFakeClock(start).now,
      rateLimit: { limit: 200, windowMs: 60_000, standardHeaders, legacyHeaders },
    });
    return running.client.get(departmentsPath(TWO_DEPARTMENTS));
  }

  it('by default: the draft-6 set plus the legacy X-RateLimit set with an epoch reset', async () => {
    running = await inProcess.start({ now: createFakeClock(start).now });
    const { headers } = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    expect(headers.get('ratelimit-policy')).toBe('200;w=60');
    expect(headers.get('ratelimit-limit')).toBe('200');
    expect(headers.get('ratelimit-remaining')).toBe('199');
    expect(headers.get('ratelimit-reset')).toBe('60');
    expect(headers.get('x-ratelimit-limit')).toBe('200');
    expect(headers.get('x-ratelimit-remaining')).toBe('199');
    expect(headers.get('x-ratelimit-reset')).toBe(String((start + 60_000) / 1000));
    expect(headers.get('ratelimit')).toBeNull();
  });

  it('draft-7: a combined RateLimit header and the policy', async () => {
    const { headers } = await firstAnswer('draft-7');
    expect(headers.get('ratelimit')).toBe('limit=200, remaining=199, reset=60');
    expect(headers.get('ratelimit-policy')).toBe('200;w=60');
    expect(headers.get('ratelimit-limit')).toBeNull();
  });

  it('draft-8: a named policy with quota, window and partition key', async () => {
    const { headers } = await firstAnswer('draft-8');
    expect(headers.get('ratelimit')).toBe('"200-in-1min"; r=199; t=60');
    expect(headers.get('ratelimit-policy')).toMatch(/^"200-in-1min"; q=200; w=60; pk=:[A-Za-z0-9+/=]{16}:$/);
  });

  it('without legacy headers there is no X-RateLimit set', async () => {
    const { headers } = await firstAnswer('draft-6', false);
    expect(headers.get('x-ratelimit-limit')).toBeNull();
    expect(headers.get('ratelimit-limit')).toBe('200');
  });
});

describe('what the rate limit counts', () => {
  it('every /api/leo request, refused ones included, per client address', async () => {
    running = await inProcess.start({
      rateLimit: { limit: 2 },
      // The test's own choice for in-process requests; the real server only ever uses the socket address.
      inProcessClientIp: (request) => request.headers.get('x-test-client') ?? '10.0.0.1',
    });
    const client = running.client;
    await client.get(departmentsPath(TWO_DEPARTMENTS), { headers: { authorization: 'Bearer wrong' } });
    await client.get('/api/leo/no-such-route');
    expect((await client.get(departmentsPath(TWO_DEPARTMENTS))).status).toBe(429);
    const otherClient = await client.get(departmentsPath(TWO_DEPARTMENTS), {
      headers: { 'x-test-client': '10.0.0.2' },
    });
    expect(otherClient.status).toBe(200);
  });

  it('not the tester controls', async () => {
    running = await inProcess.start({ rateLimit: { limit: 1 } });
    for (let call = 0; call < 3; call++) expect((await running.client.get('/__mock/faults')).status).toBe(200);
    expect((await running.client.get(departmentsPath(TWO_DEPARTMENTS))).status).toBe(200);
  });
});
