import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FenceAnswer, FenceRequest } from '../../../server/community/community.js';
import { HeldForRedis } from '../../../server/community/held-for-redis.js';
import { type OutboxFence, OutboxFenceGate } from '../../../server/community/outbox-fence-gate.js';
import { type DutyCall, Outbox, type OutboxRecord } from '../../../server/duty/outbox.js';
import { createLogger } from '../../../server/kernel/log.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import type { PanelFailure, PanelResult } from '../../../server/panel/panel-result.js';
import { DutyOnBodySchema, type DutyResponse } from '../../../shared/contract/index.js';
import { elapse, START_TIME, settle } from '../support/virtual-runtime.js';

const ALEX = '284619375016482817';
const JAMIE = '1039284756102938475';

const on = (chatId: string, departmentId = 1, rankId = 2): DutyCall => ({
  action: 'on',
  body: { chatId, departmentId, rankId },
});
const off = (chatId: string, departmentId = 1): DutyCall => ({ action: 'off', body: { chatId, departmentId } });

const delivered = (chatId: string): PanelResult<DutyResponse> => ({
  ok: true,
  status: 200,
  value: { ok: true, changed: true, duty: { chatId, onDuty: false, departmentId: null, rankId: null, since: null } },
});
const failed = (failure: PanelFailure): PanelResult<DutyResponse> => ({ ok: false, failure });
const NETWORK: PanelFailure = { kind: 'network', message: 'the panel cannot be reached (ECONNRESET)' };
const TIMEOUT: PanelFailure = { kind: 'timeout', message: 'no answer within 5000 ms' };

interface Attempt {
  call: string;
  at: number;
  answer(result: PanelResult<DutyResponse>): void;
}

/** The scheduler tells the outbox when an attempt leaves; these panels send every attempt at once. */
type SendOptions = { onSent?: () => void } | undefined;

/** A panel whose every answer the test gives by hand, so it decides what happened and when. */
function handAnsweredPanel() {
  const attempts: Attempt[] = [];
  const panel = {
    setDuty(action: 'on' | 'off', body: { chatId: string; departmentId?: number }, options?: SendOptions) {
      options?.onSent?.();
      return new Promise<PanelResult<DutyResponse>>((resolve) => {
        attempts.push({
          call: `${action} ${body.chatId} ${body.departmentId}`,
          at: Date.now() - START_TIME,
          answer: resolve,
        });
      });
    },
  };
  return { panel, attempts, calls: () => attempts.map((attempt) => attempt.call) };
}

/** A panel that answers every call at once with what `answer` returns. */
function scriptedPanel(answer: (call: string, attempt: number) => PanelResult<DutyResponse>) {
  const attempts: Array<{ call: string; at: number }> = [];
  const panel = {
    async setDuty(action: 'on' | 'off', body: { chatId: string; departmentId?: number }, options?: SendOptions) {
      options?.onSent?.();
      const call = `${action} ${body.chatId} ${body.departmentId}`;
      attempts.push({ call, at: Date.now() - START_TIME });
      return answer(call, attempts.length);
    },
  };
  return { panel, attempts, calls: () => attempts.map((attempt) => attempt.call) };
}

/** The circuit breaker as the outbox sees it, switched by the test. */
function fakeAvailability() {
  const recovered$ = new Subject<void>();
  let reachable = true;
  const waiters: Array<() => void> = [];
  return {
    recovered$,
    untilReachable: () => (reachable ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    goDown() {
      reachable = false;
    },
    comeBack() {
      reachable = true;
      for (const resolve of waiters.splice(0)) resolve();
      recovered$.next();
    },
  };
}

function outboxWith(
  panel: ConstructorParameters<typeof Outbox>[0]['panel'],
  store = createMemoryStore(),
  availability?: ReturnType<typeof fakeAvailability>,
  fence?: OutboxFence,
) {
  const lines: string[] = [];
  const held = new HeldForRedis(() => Date.now());
  const logger = createLogger({ print: (line) => lines.push(line), level: 'debug' });
  const outbox = new Outbox({
    store,
    panel,
    ...(availability ? { availability } : {}),
    // The gate as dist/redis.cjs makes it (DutyOwners.fenceGate), over a fake of the duty owners.
    ...(fence ? { fence: new OutboxFenceGate(fence, { logger, heldForRedis: held, requestTimeoutMs: 5_000 }) } : {}),
    logger,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: () => 0.5,
  });
  return { outbox, store, lines, held };
}

/** KVP holding the given kept records and sequence, as a previous run left it. */
const keptStore = (records: OutboxRecord[], sequence: number) => {
  const store = createMemoryStore();
  for (const record of records) store.set(`outbox:${String(record.id).padStart(12, '0')}`, JSON.stringify(record));
  store.set('outbox-sequence', String(sequence));
  return store;
};

const recordsIn = (store: ReturnType<typeof createMemoryStore>): OutboxRecord[] =>
  [...store.entries].flatMap(([key, value]) => {
    if (!key.startsWith('outbox:')) return [];
    try {
      return [JSON.parse(value) as OutboxRecord];
    } catch {
      return [];
    }
  });

beforeEach(() => {
  vi.useFakeTimers({ now: START_TIME });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the outbox', () => {
  it('writes a call to KVP before sending it and removes it once delivered', async () => {
    const { panel, attempts } = handAnsweredPanel();
    const { outbox, store } = outboxWith(panel);

    const { result } = outbox.enqueue(off(ALEX));
    expect(recordsIn(store)).toEqual([{ id: 1, call: off(ALEX), createdAt: START_TIME }]);

    await settle();
    attempts[0]?.answer(delivered(ALEX));
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(recordsIn(store)).toEqual([]);
    expect(outbox.size).toBe(0);
  });

  it('sends one player’s calls one at a time, in order, while other players do not wait', async () => {
    const { panel, attempts, calls } = handAnsweredPanel();
    const { outbox } = outboxWith(panel);

    outbox.enqueue(on(ALEX));
    outbox.enqueue(off(ALEX));
    outbox.enqueue(on(ALEX, 2, 4));
    outbox.enqueue(on(JAMIE, 3, 7));
    await settle();
    expect(calls()).toEqual([`on ${ALEX} 1`, `on ${JAMIE} 3`]);

    attempts[0]?.answer(delivered(ALEX));
    await settle();
    expect(calls()).toEqual([`on ${ALEX} 1`, `on ${JAMIE} 3`, `off ${ALEX} 1`]);

    attempts[2]?.answer(delivered(ALEX));
    await settle();
    expect(calls().at(-1)).toBe(`on ${ALEX} 2`);
  });

  it('retries a transient failure with exponential backoff and jitter, keeping the call in KVP', async () => {
    const { panel, attempts } = scriptedPanel((_call, attempt) => (attempt <= 9 ? failed(NETWORK) : delivered(ALEX)));
    const { outbox, store } = outboxWith(panel);

    const { result } = outbox.enqueue(off(ALEX));
    await elapse(11_250);
    expect(recordsIn(store)).toHaveLength(1);
    await elapse(300_000);

    // random() = 0.5 puts each wait at three quarters of its ceiling: 1 s, 2 s, 4 s, ... up to 60 s.
    expect(attempts.map((attempt) => attempt.at)).toEqual([
      0, 750, 2_250, 5_250, 11_250, 23_250, 47_250, 92_250, 137_250, 182_250,
    ]);
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(recordsIn(store)).toEqual([]);
  });

  it('waits exactly as long as Retry-After says, without jitter', async () => {
    const { panel, attempts } = scriptedPanel((_call, attempt) =>
      attempt === 1
        ? failed({ kind: 'rate_limited', status: 429, message: 'too many requests', retryAfterMs: 42_000 })
        : delivered(ALEX),
    );
    const { outbox } = outboxWith(panel);

    outbox.enqueue(off(ALEX));
    await elapse(41_999);
    expect(attempts).toHaveLength(1);
    await elapse(1);
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 42_000]);
  });

  it.each([
    ['a 400 refusal', { kind: 'rejected', status: 400, code: 'rank_mismatch', message: "the user's rank is 3" }],
    ['a 404', { kind: 'not_found', status: 404, code: 'user_not_found', message: 'no panel user has this chat id' }],
  ] as const)('drops a call the panel refuses (%s) and goes on with the next', async (_name, failure) => {
    const { panel, calls } = scriptedPanel((call) => (call.startsWith('on') ? failed(failure) : delivered(ALEX)));
    const { outbox, store, lines } = outboxWith(panel);

    const first = outbox.enqueue(on(ALEX));
    const second = outbox.enqueue(off(ALEX));
    await settle();

    expect(await first.result).toEqual({ kind: 'refused', failure });
    expect(await second.result).toMatchObject({ kind: 'delivered' });
    expect(calls()).toEqual([`on ${ALEX} 1`, `off ${ALEX} 1`]);
    expect(recordsIn(store)).toEqual([]);
    expect(lines.filter((line) => line.includes(`refused duty on for chat id ${ALEX}: ${failure.code}`))).toHaveLength(
      1,
    );
  });

  it('ends an off the panel answers with its own 404 user_not_found: a deleted account has no duty left there', async () => {
    const failure = {
      kind: 'not_found',
      status: 404,
      code: 'user_not_found',
      message: 'no panel user has this chat id',
    } as const;
    const { panel, calls } = scriptedPanel(() => failed(failure));
    const { outbox, store, lines } = outboxWith(panel);

    const { result } = outbox.enqueue(off(ALEX));
    await elapse(30 * 60_000);

    expect(await result).toEqual({ kind: 'refused', failure });
    expect(calls()).toEqual([`off ${ALEX} 1`]);
    expect(recordsIn(store)).toEqual([]);
    expect(lines.filter((line) => line.includes('WARN') || line.includes('ERROR'))).toEqual([]);
    expect(lines.filter((line) => line.includes(`the panel no longer knows chat id ${ALEX}`))).toHaveLength(1);
  });

  it.each([
    [
      'a proxy’s HTML 404',
      {
        kind: 'unreadable',
        status: 404,
        message: 'an HTML 404 page ("404 Not Found"), not the panel\'s own answer',
        notThePanels: true,
      },
    ],
    ['a 200 with ok: false', { kind: 'rejected', status: 200, code: 'rank_mismatch', message: 'odd' }],
    ['an unknown route', { kind: 'not_found', status: 404, code: 'not_found', message: 'no such route' }],
    ['a refused token', { kind: 'unauthorized', status: 401, code: 'unauthorized', message: 'bad token' }],
    ['an answer off the contract', { kind: 'invalid_response', status: 200, message: 'not JSON' }],
    ['a contract code with the wrong status', { kind: 'rejected', status: 418, code: 'not_member', message: 'teapot' }],
  ] as const)('keeps a call through %s, with one console line, until the panel takes it', async (_name, failure) => {
    let healed = false;
    const { panel, attempts } = scriptedPanel(() => (healed ? delivered(ALEX) : failed(failure)));
    const { outbox, store, lines } = outboxWith(panel);

    const { result } = outbox.enqueue(off(ALEX));
    outbox.enqueue(off(JAMIE));
    await elapse(30 * 60_000);
    expect(recordsIn(store)).toHaveLength(2);
    expect(outbox.size).toBe(2);
    const told = lines.filter((line) => line.includes('WARN') || line.includes('ERROR'));
    expect(told).toHaveLength(1);
    expect(told[0]).not.toContain('dropped');

    healed = true;
    await elapse(60_000);
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(recordsIn(store)).toEqual([]);
    // The backoff grows towards its one-minute ceiling instead of hammering the broken panel.
    const [before, last] = attempts.filter((attempt) => attempt.call.includes(ALEX)).slice(-2);
    expect((last?.at ?? 0) - (before?.at ?? 0)).toBeGreaterThanOrEqual(30_000);
  });

  it('withdraws a call not yet sent without sending it or anything else', async () => {
    const { panel, attempts, calls } = handAnsweredPanel();
    const { outbox, store } = outboxWith(panel);
    outbox.enqueue(off(ALEX, 2));
    const waiting = outbox.enqueue(on(ALEX));
    await settle();

    outbox.withdraw(waiting.id);
    attempts[0]?.answer(delivered(ALEX));
    await settle();

    expect(await waiting.result).toEqual({ kind: 'withdrawn' });
    expect(calls()).toEqual([`off ${ALEX} 2`]);
    expect(recordsIn(store)).toEqual([]);
  });

  it('undoes a withdrawn on that timed out with an off, sent before the player’s next call', async () => {
    const { panel, calls } = scriptedPanel((_call, attempt) => (attempt === 1 ? failed(TIMEOUT) : delivered(ALEX)));
    const { outbox } = outboxWith(panel);
    const first = outbox.enqueue(on(ALEX));
    await settle();

    outbox.withdraw(first.id);
    outbox.enqueue(on(ALEX, 2, 4));
    await elapse(60_000);

    expect(await first.result).toEqual({ kind: 'withdrawn' });
    expect(calls()).toEqual([`on ${ALEX} 1`, `off ${ALEX} 1`, `on ${ALEX} 2`]);
  });

  it('undoes a withdrawn on whose answer was still on its way, even when the panel took it', async () => {
    const { panel, attempts, calls } = handAnsweredPanel();
    const { outbox } = outboxWith(panel);
    const first = outbox.enqueue(on(ALEX));
    await settle();

    outbox.withdraw(first.id);
    outbox.enqueue(on(ALEX, 2, 4));
    attempts[0]?.answer(delivered(ALEX));
    await settle();
    attempts[1]?.answer(delivered(ALEX));
    await settle();

    expect(calls()).toEqual([`on ${ALEX} 1`, `off ${ALEX} 1`, `on ${ALEX} 2`]);
  });
});

describe('stopping the outbox', () => {
  it('sends no retry after stop(), and keeps the call in KVP for the next run', async () => {
    const { panel, attempts } = scriptedPanel(() => failed(NETWORK));
    const { outbox, store } = outboxWith(panel);

    outbox.enqueue(off(ALEX));
    await elapse(1_000);
    expect(attempts).toHaveLength(2);
    outbox.stop();
    await elapse(600_000);

    expect(attempts).toHaveLength(2);
    expect(recordsIn(store)).toEqual([{ id: 1, call: off(ALEX), createdAt: START_TIME }]);
  });

  it('settles a call whose answer comes after stop(): the attempt had reached the panel', async () => {
    const { panel, attempts, calls } = handAnsweredPanel();
    const { outbox, store } = outboxWith(panel);

    const { result } = outbox.enqueue(on(ALEX));
    outbox.enqueue(off(ALEX));
    await settle();
    outbox.stop();
    attempts[0]?.answer(delivered(ALEX));

    expect(await result).toMatchObject({ kind: 'delivered' });
    await settle();
    expect(calls()).toEqual([`on ${ALEX} 1`]);
    expect(recordsIn(store)).toEqual([{ id: 2, call: off(ALEX), createdAt: START_TIME }]);
  });
});

describe('the outbox and the circuit breaker', () => {
  const UNAVAILABLE: PanelFailure = { kind: 'unavailable', message: 'the panel is unreachable' };

  it('cuts a backoff short when the panel answers again', async () => {
    const availability = fakeAvailability();
    const { panel, attempts } = scriptedPanel((_call, attempt) => (attempt <= 6 ? failed(NETWORK) : delivered(ALEX)));
    const { outbox } = outboxWith(panel, createMemoryStore(), availability);

    const { result } = outbox.enqueue(off(ALEX));
    await elapse(24_000);
    // Six failures: the next try would come at 47.25 s (a 24 s wait, three quarters of its 32 s ceiling).
    expect(attempts).toHaveLength(6);
    await elapse(1_000);
    availability.comeBack();
    await settle();

    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 750, 2_250, 5_250, 11_250, 23_250, 25_000]);
    expect(await result).toMatchObject({ kind: 'delivered' });
  });

  it('waits for the panel without spending attempts while it is known to be down, then sends at once', async () => {
    const availability = fakeAvailability();
    availability.goDown();
    let down = true;
    const { panel, attempts } = scriptedPanel(() => (down ? failed(UNAVAILABLE) : delivered(ALEX)));
    const { outbox, store } = outboxWith(panel, createMemoryStore(), availability);

    const { result } = outbox.enqueue(off(ALEX));
    await elapse(600_000);
    expect(attempts).toHaveLength(1);
    expect(outbox.stats()).toMatchObject({ size: 1, waitingForPanel: 1, oldestCreatedAt: START_TIME });
    expect(recordsIn(store)).toHaveLength(1);

    down = false;
    availability.comeBack();
    await settle();
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 600_000]);
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(outbox.stats()).toMatchObject({ size: 0, waitingForPanel: 0 });
  });
});

describe('resuming after a restart', () => {
  it('sends the calls a previous run left in KVP in the order they were made', async () => {
    const store = keptStore(
      [
        { id: 12, call: off(ALEX, 2), createdAt: 3 },
        { id: 3, call: off(ALEX, 1), createdAt: 1 },
        { id: 9, call: off(JAMIE, 3), createdAt: 2 },
      ],
      12,
    );
    store.set('outbox:000000000010', '{not json');
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox } = outboxWith(panel, store);

    expect(outbox.resume()).toBe(3);
    await settle();

    expect(calls()).toEqual([`off ${ALEX} 1`, `off ${JAMIE} 3`, `off ${ALEX} 2`]);
    expect(recordsIn(store)).toEqual([]);
  });

  it('sets aside each kept record it cannot send, tells it once by its key, and sends the others in order', async () => {
    const store = keptStore(
      [
        { id: 3, call: off(ALEX, 1), createdAt: 1 },
        { id: 6, call: off(JAMIE, 3), createdAt: 2 },
        { id: 11, call: off(ALEX, 2), createdAt: 3 },
      ],
      11,
    );
    const bad: Record<string, string> = {
      // A record of the wrong shape: today's start-up stops on it.
      'outbox:000000000004': JSON.stringify({ id: 4, call: { action: 'on' }, createdAt: 1 }),
      'outbox:000000000005': '{not json',
      'outbox:000000000007': JSON.stringify({
        id: 7,
        call: { action: 'teleport', body: off(ALEX).body },
        createdAt: 1,
      }),
      'outbox:000000000008': JSON.stringify({ id: 8, call: off('secret-looking-value'), createdAt: 1 }),
      'outbox:000000000009': JSON.stringify({ id: 2, call: off(JAMIE), createdAt: 1 }),
      'outbox:000000000010': 'null',
    };
    for (const [key, value] of Object.entries(bad)) store.set(key, value);
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox, lines } = outboxWith(panel, store);

    expect(outbox.resume()).toBe(3);
    await settle();

    expect(calls()).toEqual([`off ${ALEX} 1`, `off ${JAMIE} 3`, `off ${ALEX} 2`]);
    expect(recordsIn(store)).toEqual([]);
    for (const [key, value] of Object.entries(bad)) {
      expect(store.get(key)).toBeNull();
      expect(store.get(key.replace('outbox:', 'outbox-rejected:'))).toBe(value);
    }
    const warnings = lines.filter((line) => line.includes('WARN'));
    expect(warnings).toHaveLength(Object.keys(bad).length);
    for (const key of Object.keys(bad)) expect(warnings.filter((line) => line.includes(key))).toHaveLength(1);
    expect(warnings.join('\n')).not.toContain('secret-looking-value');
    expect(warnings.join('\n')).not.toContain('teleport');

    // Told once: the next start finds nothing left to tell.
    const { outbox: next, lines: nextLines } = outboxWith(panel, store);
    expect(next.resume()).toBe(0);
    expect(nextLines.filter((line) => line.includes('WARN'))).toEqual([]);
  });

  it('numbers new calls apart when the kept sequence is not a number', async () => {
    const store = keptStore([{ id: 7, call: off(ALEX), createdAt: 1 }], 7);
    store.set('outbox-sequence', 'seven');
    const { panel } = handAnsweredPanel();
    const { outbox, lines } = outboxWith(panel, store);

    outbox.resume();
    const first = outbox.enqueue(off(JAMIE, 1));
    const second = outbox.enqueue(off(JAMIE, 2));

    expect([first.id, second.id]).toEqual([8, 9]);
    expect(recordsIn(store).map((record) => record.id)).toEqual([7, 8, 9]);
    expect(store.get('outbox-sequence')).toBe('9');
    expect(lines.filter((line) => line.includes('WARN') && line.includes('outbox-sequence'))).toHaveLength(1);
  });

  it('rebuilds a kept sequence at the largest safe integer from the kept records, told in one line', async () => {
    const store = keptStore([{ id: 7, call: off(ALEX), createdAt: 1 }], Number.MAX_SAFE_INTEGER);
    const { panel } = handAnsweredPanel();
    const { outbox, lines } = outboxWith(panel, store);

    outbox.resume();
    const ids = [outbox.enqueue(off(JAMIE, 1)).id, outbox.enqueue(off(JAMIE, 2)).id, outbox.enqueue(off(JAMIE, 3)).id];

    expect(ids).toEqual([8, 9, 10]);
    expect(recordsIn(store).map((record) => record.id)).toEqual([7, 8, 9, 10]);
    expect(store.get('outbox-sequence')).toBe('10');
    expect(lines.filter((line) => line.includes('outbox-sequence'))).toEqual([expect.stringContaining('WARN')]);
  });

  it('rebuilds a kept sequence lower than a kept record’s before numbering a new call, told in one line', async () => {
    const store = keptStore(
      [
        { id: 7, call: off(ALEX, 1), createdAt: 1 },
        { id: 12, call: off(ALEX, 2), createdAt: 2 },
      ],
      5,
    );
    const { panel, calls } = handAnsweredPanel();
    const { outbox, lines } = outboxWith(panel, store);

    // A call made before the kept ones are resumed must not take a kept call's number (and its KVP key).
    const early = outbox.enqueue(off(JAMIE, 3));
    outbox.resume();
    await settle();

    expect(early.id).toBe(13);
    expect(recordsIn(store).map((record) => record.id)).toEqual([7, 12, 13]);
    expect(calls()).toEqual([`off ${JAMIE} 3`, `off ${ALEX} 1`]);
    expect(lines.filter((line) => line.includes('outbox-sequence'))).toEqual([
      expect.stringMatching(/WARN: .*outbox-sequence in KVP is 5, lower than the kept duty call 12/),
    ]);
  });

  it('counts on a kept sequence at or above every kept record without a word', async () => {
    const store = keptStore([{ id: 7, call: off(ALEX), createdAt: 1 }], 40);
    const { panel } = handAnsweredPanel();
    const { outbox, lines } = outboxWith(panel, store);

    outbox.resume();

    expect(outbox.enqueue(off(JAMIE)).id).toBe(41);
    expect(lines.filter((line) => line.includes('outbox-sequence'))).toEqual([]);
  });

  it('sends a kept on with a name the contract refuses with the name it accepts', async () => {
    const long = { chatId: ALEX, departmentId: 1, rankId: 2, playerName: `  ${'N'.repeat(300)}` };
    const store = keptStore([{ id: 5, call: { action: 'on', body: long }, createdAt: 1, appliedInGame: true }], 5);
    const bodies: unknown[] = [];
    const panel = {
      async setDuty(_action: 'on' | 'off', body: unknown, options?: SendOptions) {
        options?.onSent?.();
        bodies.push(body);
        return delivered(ALEX);
      },
    };
    const { outbox } = outboxWith(panel, store);

    outbox.resume();
    await settle();

    expect(bodies[0]).toEqual({ chatId: ALEX, departmentId: 1, rankId: 2, playerName: 'N'.repeat(255) });
    expect(DutyOnBodySchema.safeParse(bodies[0]).success).toBe(true);
  });

  it('numbers new calls after the ones it resumed, so they queue behind them', async () => {
    const store = keptStore([{ id: 40, call: off(ALEX), createdAt: 1 }], 40);
    const { panel, attempts, calls } = handAnsweredPanel();
    const { outbox } = outboxWith(panel, store);

    outbox.resume();
    const next = outbox.enqueue(on(ALEX, 2, 4));
    await settle();
    expect(next.id).toBe(41);
    expect(calls()).toEqual([`off ${ALEX} 1`]);

    attempts[0]?.answer(delivered(ALEX));
    await settle();
    expect(calls()).toEqual([`off ${ALEX} 1`, `on ${ALEX} 2`]);
  });

  it('delivers an on the game had applied (degraded mode) and then the off that ends it', async () => {
    const store = keptStore([{ id: 5, call: on(ALEX, 1, 2), createdAt: 1, appliedInGame: true }], 5);
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox } = outboxWith(panel, store);

    outbox.resume();
    await settle();

    expect(calls()).toEqual([`on ${ALEX} 1`, `off ${ALEX} 1`]);
    expect(recordsIn(store)).toEqual([]);
  });

  it('does not add an off behind an applied on when the last run already queued one', async () => {
    const store = keptStore(
      [
        { id: 5, call: on(ALEX, 1, 2), createdAt: 1, appliedInGame: true },
        { id: 6, call: off(ALEX, 1), createdAt: 2 },
      ],
      6,
    );
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox } = outboxWith(panel, store);

    outbox.resume();
    await settle();

    expect(calls()).toEqual([`on ${ALEX} 1`, `off ${ALEX} 1`]);
  });

  it('turns an on left from the last run into the off that ends it', async () => {
    const store = keptStore([{ id: 5, call: on(ALEX, 1, 2), createdAt: 1 }], 5);
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox } = outboxWith(panel, store);

    outbox.resume();
    await settle();

    expect(calls()).toEqual([`off ${ALEX} 1`]);
    expect(recordsIn(store)).toEqual([]);
  });
});

/**
 * The community's fence in front of each attempt (issue 30): a fake of the duty owners whose every answer the test
 * chooses, recording what it was asked.
 */
function fakeFence(
  answer: (request: FenceRequest) => Promise<FenceAnswer>,
  announced: () => Promise<void> = async () => {},
) {
  const asked: FenceRequest[] = [];
  const delivered: FenceRequest[] = [];
  const sending: string[] = [];
  const intended: string[] = [];
  const answers$ = new Subject<void>();
  const fence: OutboxFence = {
    confirm: (request) => {
      asked.push(request);
      return answer(request);
    },
    delivered: (request) => void delivered.push(request),
    sending: (chatId) => void sending.push(chatId),
    intend: (chatId, departmentId) => {
      intended.push(`${chatId} ${departmentId}`);
      return announced();
    },
    answers$,
  };
  return { fence, asked, delivered, sending, intended, answers$ };
}
const GO: FenceAnswer = { kind: 'go' };
const fenced = (call: DutyCall, shift = '7:100'): DutyCall => ({ ...call, fence: { shift } });

describe('fenced calls in a community of servers', () => {
  it('confirms a fenced call right before each attempt, and tells the owners once the panel took it', async () => {
    const { fence, asked, delivered: told } = fakeFence(async () => GO);
    const { panel, calls } = scriptedPanel((_call, attempt) => (attempt === 1 ? failed(NETWORK) : delivered(ALEX)));
    const { outbox } = outboxWith(panel, createMemoryStore(), undefined, fence);

    const { result } = outbox.enqueue(fenced(off(ALEX)));
    await elapse(2_000);

    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(calls()).toEqual([`off ${ALEX} 1`, `off ${ALEX} 1`]);
    expect(asked).toEqual([
      expect.objectContaining({ chatId: ALEX, action: 'off', fence: { shift: '7:100' }, departmentId: 1 }),
      expect.objectContaining({ chatId: ALEX, action: 'off', fence: { shift: '7:100' } }),
    ]);
    // The lease covers the wait for its turn (a request timeout at most), the request's own timeout and a margin.
    expect(asked[0]?.leaseMs).toBe(5_000 + 5_000 + 2_000);
    expect(told).toHaveLength(1);
  });

  it('does not send a call whose claim is stale, with one line, and drops its record', async () => {
    const { fence } = fakeFence(async () => ({ kind: 'stale', why: 'server 0123456789abcdef holds the account now' }));
    const { panel, calls } = handAnsweredPanel();
    const { outbox, store, lines } = outboxWith(panel, createMemoryStore(), undefined, fence);

    const { result } = outbox.enqueue(fenced(off(ALEX)));
    expect(await result).toEqual({ kind: 'withdrawn' });
    expect(calls()).toEqual([]);
    expect(recordsIn(store)).toEqual([]);
    expect(lines.filter((line) => line.includes('not sent'))).toEqual([
      `INFO: the off of chat account ${ALEX} is not sent: server 0123456789abcdef holds the account now`,
    ]);
  });

  it('sends the `on` of a new duty without asking (its claim follows), and tells the owners when it leaves', async () => {
    const { fence, asked, sending } = fakeFence(async () => GO);
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox } = outboxWith(panel, createMemoryStore(), undefined, fence);

    await outbox.enqueue(on(ALEX)).result;
    expect(calls()).toEqual([`on ${ALEX} 1`]);
    expect(asked).toEqual([]);
    expect(sending).toEqual([ALEX]);
  });

  it('announces the `on` of a new duty before it leaves, so a peer can end it if this server dies unclaimed', async () => {
    let announce: () => void = () => {};
    const announcing = new Promise<void>((resolve) => {
      announce = resolve;
    });
    const { fence, intended } = fakeFence(
      async () => GO,
      () => announcing,
    );
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox } = outboxWith(panel, createMemoryStore(), undefined, fence);

    const { result } = outbox.enqueue(on(ALEX));
    await elapse(100);
    expect(intended).toEqual([`${ALEX} 1`]);
    expect(calls()).toEqual([]);
    announce();
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(calls()).toEqual([`on ${ALEX} 1`]);
    // A fenced call is confirmed instead, never announced.
    await outbox.enqueue(fenced(off(ALEX))).result;
    expect(intended).toEqual([`${ALEX} 1`]);
  });

  it('holds a call Redis cannot confirm, however long, with one WARN, listed as held for Redis, until Redis answers again', async () => {
    let redisUp = false;
    const { fence, answers$ } = fakeFence(async () => {
      if (!redisUp) throw new Error('Redis does not answer');
      return GO;
    });
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox, lines, held } = outboxWith(panel, createMemoryStore(), undefined, fence);

    const first = outbox.enqueue(fenced(off(ALEX))).result;
    outbox.enqueue(fenced(off(JAMIE), '8:100'));
    await elapse(3_600_000);
    expect(calls()).toEqual([]);
    expect(held.list()).toEqual([
      { what: `off of chat account ${ALEX} (department 1)`, since: START_TIME },
      { what: `off of chat account ${JAMIE} (department 1)`, since: START_TIME },
    ]);
    expect(lines.filter((line) => /WARN|INFO/.test(line))).toEqual([
      expect.stringMatching(
        /^WARN: 1 duty call\(s\) wait for Redis \(BRIDGE_REDIS_URL\) to confirm .*\(Redis does not answer\); none is sent on a guess/,
      ),
    ]);

    redisUp = true;
    answers$.next();
    await settle();
    expect(await first).toMatchObject({ kind: 'delivered' });
    expect(calls()).toEqual([`off ${ALEX} 1`, `off ${JAMIE} 1`]);
    expect(held.list()).toEqual([]);
    expect(lines.filter((line) => line.startsWith('INFO'))).toEqual([
      'INFO: Redis confirms the duty calls again: those it held go on',
    ]);
  });

  it('bridge release: the held calls go without a confirmation, with one WARN saying what it risks', async () => {
    const { fence, asked } = fakeFence(() => Promise.reject(new Error('Redis does not answer')));
    const { panel, calls } = scriptedPanel(() => delivered(ALEX));
    const { outbox, lines, held } = outboxWith(panel, createMemoryStore(), undefined, fence);

    const { result } = outbox.enqueue(fenced(off(ALEX)));
    await elapse(60_000);
    expect(held.list()).toHaveLength(1);
    expect(outbox.releaseHeld()).toBe(1);
    expect(held.list()).toEqual([]);
    await settle();
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(calls()).toEqual([`off ${ALEX} 1`]);
    expect(asked.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes('bridge release'))).toEqual([
      expect.stringMatching(/^WARN: .*bridge release sends them without the confirmation/),
      expect.stringMatching(
        /^WARN: 1 duty call\(s\) held for Redis are sent without Redis's confirmation .*another server since/,
      ),
    ]);
    expect(outbox.releaseHeld()).toBe(0);
  });

  it('takes a confirmed attempt back when it has not left within a request timeout (its turn waited), and confirms it again', async () => {
    const { fence, asked } = fakeFence(async () => GO);
    let open = false;
    const attempts: string[] = [];
    const panel = {
      setDuty(
        _action: 'on' | 'off',
        body: { chatId: string },
        options?: { signal?: AbortSignal; onSent?: () => void },
      ): Promise<PanelResult<DutyResponse>> {
        return new Promise((resolve) => {
          const leave = () => {
            options?.onSent?.();
            attempts.push(body.chatId);
            resolve(delivered(body.chatId));
          };
          if (open) return leave();
          const waiting = setInterval(() => {
            if (options?.signal?.aborted) {
              clearInterval(waiting);
              resolve(failed({ kind: 'cancelled', message: 'withdrawn before it was sent' }));
            } else if (open) {
              clearInterval(waiting);
              leave();
            }
          }, 100);
        });
      },
    };
    const { outbox } = outboxWith(panel, createMemoryStore(), undefined, fence);

    const { result } = outbox.enqueue(fenced(off(ALEX)));
    await elapse(12_000);
    // The panel's budget held it: confirmed again every 5 s, never sent on an old confirmation.
    expect(asked).toHaveLength(3);
    expect(attempts).toEqual([]);
    open = true;
    await elapse(200);
    expect(await result).toMatchObject({ kind: 'delivered' });
    expect(attempts).toEqual([ALEX]);
  });

  it('asks about the calls a crashed run kept: each with its fence, an older one without as unclaimed', async () => {
    const store = keptStore(
      [
        { id: 1, call: { ...off(ALEX), fence: { shift: '7:100' } }, createdAt: 1 },
        { id: 2, call: off(JAMIE), createdAt: 2 },
        { id: 3, call: on(JAMIE), createdAt: 3 },
      ],
      3,
    );
    const { fence, asked } = fakeFence(async ({ chatId }) =>
      chatId === ALEX ? { kind: 'stale', why: 'server 0123456789abcdef holds the account now' } : GO,
    );
    const { panel, calls } = scriptedPanel(() => delivered(JAMIE));
    const { outbox, lines } = outboxWith(panel, store, undefined, fence);

    outbox.resume();
    await settle();

    expect(asked.map(({ chatId, action, fence: f, fromLastRun }) => ({ chatId, action, f, fromLastRun }))).toEqual([
      { chatId: ALEX, action: 'off', f: { shift: '7:100' }, fromLastRun: true },
      { chatId: JAMIE, action: 'off', f: { unclaimed: true }, fromLastRun: true },
      // The kept `on` that never got an answer becomes the `off` that ends it: never claimed.
      { chatId: JAMIE, action: 'off', f: { unclaimed: true }, fromLastRun: true },
    ]);
    expect(calls()).toEqual([`off ${JAMIE} 1`, `off ${JAMIE} 1`]);
    expect(recordsIn(store)).toEqual([]);
    expect(lines.filter((line) => line.includes('not sent'))).toHaveLength(1);
  });

  it('keeps a call’s fence in KVP, so a restart confirms it under the same claim', async () => {
    const { panel } = handAnsweredPanel();
    const { fence } = fakeFence(() => new Promise(() => {}));
    const { outbox, store } = outboxWith(panel, createMemoryStore(), undefined, fence);
    outbox.enqueue(fenced(off(ALEX), '7:100'));
    outbox.enqueue({ ...off(JAMIE), fence: { shift: '3:5', server: 'fedcba9876543210' } });
    expect(recordsIn(store).map((record) => record.call.fence)).toEqual([
      { shift: '7:100' },
      { shift: '3:5', server: 'fedcba9876543210' },
    ]);
    outbox.stop();
    const restarted = fakeFence(() => new Promise(() => {}));
    const again = outboxWith(panel, store, undefined, restarted.fence);
    expect(again.outbox.resume()).toBe(2);
    await settle();
    expect(restarted.asked.map((request) => request.fence)).toEqual([
      { shift: '7:100' },
      { shift: '3:5', server: 'fedcba9876543210' },
    ]);
  });
});
