import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { TWO_DEPARTMENTS } from '../../../../bench/support/demo-users.js';
import { population } from '../../../../bench/support/population.js';
import type { MockPanel } from '../../../../mock-panel/index.js';
import { createLogger } from '../../../../server/kernel/log.js';
import { createPanelStack, type PanelStack } from '../../../../server/panel/panel-stack.js';
import type { ProfileRequestClass, RequestClass } from '../../../../server/panel/request-queues.js';
import type { BudgetGrant, SharedBudget } from '../../../../server/panel/request-scheduler.js';
import { PANEL_URL, TOKEN, useMockPanel } from '../../support/bridge-harness.js';
import { createVirtualRuntime, elapse, START_TIME, settle, waitFor } from '../../support/virtual-runtime.js';

const mock = useMockPanel();
const stacks: PanelStack[] = [];
afterEach(() => {
  for (const stack of stacks.splice(0)) stack.stop();
});

/** The bridge's way to the panel (transport, budget, breaker, scheduler) on virtual time, without the rest. */
function stackFor(panel: MockPanel, fallbackLimit = { limit: 200, windowMs: 60_000 }, shared?: SharedBudget) {
  const lines: string[] = [];
  const dispatched: string[] = [];
  const stack = createPanelStack({
    apiBase: PANEL_URL,
    token: TOKEN,
    timeoutMs: 5_000,
    fallbackLimit,
    ...(shared ? { shared } : {}),
    runtime: {
      ...createVirtualRuntime(),
      fetch: (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        dispatched.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(input, init);
      },
    },
    logger: createLogger({ print: (line) => lines.push(line) }),
  });
  stacks.push(stack);
  const requests = () => panel.controls.requests();
  return {
    stack,
    lines,
    /** `METHOD path` of every request in the order it left the bridge. */
    dispatched,
    /** `METHOD path status` of every request the panel saw. */
    answers: () => requests().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
    /** Requests the panel saw in [from, to) ms after the start. */
    sentBetween: (from: number, to: number) =>
      requests().filter((entry) => {
        const at = Date.parse(entry.time) - START_TIME;
        return at >= from && at < to;
      }).length,
    tooMany: () => requests().filter((entry) => entry.status === 429).length,
  };
}

const users = population(1_000);
const chatIds = users.members.map((member) => member.chatId);
const fetchPath = (chatId: string) => `GET /api/leo/user/${chatId}/departments`;

/** Spends `count` requests of the panel's window from another script on the same server (same IP). */
async function spendWindow(count: number) {
  for (let i = 0; i < count; i++) {
    await fetch(`${PANEL_URL}/api/leo/user/${TWO_DEPARTMENTS}/departments`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
  }
}

/**
 * The community's budget as the scheduler sees it, each answer held until the test gives it: the answer of a Redis
 * call is on its way for as long as the test likes (the budget itself is tested on a real redis-server in
 * test/server/community/shared-budget.test.ts).
 */
function heldCommunity() {
  const asked: RequestClass[] = [];
  const pending: Array<(grant: BudgetGrant) => void> = [];
  const shared: SharedBudget = {
    active: true,
    servers: 2,
    aloneForMs: undefined,
    acquire: (requestClass) => {
      asked.push(requestClass);
      return new Promise((resolve) => pending.push(resolve));
    },
    observe: () => {},
    refused: () => {},
  };
  return { shared, asked, answer: (grant: BudgetGrant) => pending.shift()?.(grant) };
}

describe('the request scheduler', () => {
  it('serves duty calls first, then players waiting, then joins, then refreshes (members before others)', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 5, windowMs: 60_000 } });
    const { stack, answers, dispatched } = stackFor(panel, { limit: 5, windowMs: 60_000 });
    // A full window first, so everything below waits together for the next one.
    await waitFor(Promise.all(chatIds.slice(0, 5).map((chatId) => stack.client.getDepartments(chatId))));
    const labels = new Map<string, string>([['POST /api/leo/duty/off', 'duty']]);
    const classes: ProfileRequestClass[] = ['other-refresh', 'member-refresh', 'join', 'waiting'];
    const waiting: Promise<unknown>[] = classes.map((priority, index) => {
      const chatId = chatIds[10 + index] as string;
      labels.set(fetchPath(chatId), priority);
      return stack.client.getDepartments(chatId, { priority });
    });
    waiting.push(stack.client.setDuty('off', { chatId: chatIds[20] as string }));
    await settle();
    expect(answers()).toHaveLength(5);

    await elapse(2 * 60_000);
    await Promise.all(waiting);
    expect(dispatched.slice(5).map((request) => labels.get(request))).toEqual([
      'duty',
      'waiting',
      'join',
      'member-refresh',
      'other-refresh',
    ]);
  });

  it('takes turns between players within a class', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 5, windowMs: 60_000 } });
    const { stack } = stackFor(panel, { limit: 5, windowMs: 60_000 });
    await waitFor(Promise.all(chatIds.slice(0, 5).map((chatId) => stack.client.getDepartments(chatId))));
    const sent: string[] = [];
    const off = (player: string, departmentId: number) =>
      stack.client.setDuty(
        'off',
        { chatId: chatIds[100 + 'abc'.indexOf(player)] as string, departmentId },
        { onSent: () => sent.push(`${player}${departmentId}`) },
      );
    const calls = [off('a', 1), off('a', 2), off('a', 3), off('b', 1), off('c', 1)];
    await elapse(60_000);
    await Promise.all(calls);
    expect(sent).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
  });

  it('fetches a player’s profile once however many ask, and a caller with a higher class moves it up', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 5, windowMs: 60_000 } });
    const { stack, answers } = stackFor(panel, { limit: 5, windowMs: 60_000 });
    await waitFor(Promise.all(chatIds.slice(0, 5).map((chatId) => stack.client.getDepartments(chatId))));
    const joins = chatIds.slice(10, 20).map((chatId) => stack.client.getDepartments(chatId, { priority: 'join' }));
    const last = chatIds[19] as string;
    // The last joiner's client asks for the profile: the same request, now ahead of the other joins.
    const asked = [stack.client.getDepartments(last, { priority: 'waiting' }), stack.client.getDepartments(last)];
    await elapse(60_000);
    const [first, second] = await Promise.all(asked);
    expect(first).toBe(second);
    expect(answers().slice(5, 6)).toEqual([`${fetchPath(last)} 200`]);
    await elapse(120_000);
    await Promise.all(joins);
    expect(answers().filter((answer) => answer.startsWith(fetchPath(last)))).toHaveLength(1);
  });

  it('answers a fresh fetch with a request sent after it, never one already on its way', async () => {
    const panel = mock.replace({ data: users.data });
    const { stack, answers } = stackFor(panel);
    const chatId = chatIds[0] as string;
    panel.controls.setLatency(1_000);
    const early = stack.client.getDepartments(chatId);
    await elapse(100);
    // The roles change while that request is on its way: only a new request can see them.
    const queuedAlongside = stack.client.getDepartments(chatId, { fresh: true });
    const joinsQueued = stack.client.getDepartments(chatId, { fresh: true });
    await elapse(5_000);
    await waitFor(Promise.all([early, queuedAlongside, joinsQueued]));
    expect(answers().filter((answer) => answer.startsWith(fetchPath(chatId)))).toHaveLength(2);
    expect(await joinsQueued).toBe(await queuedAlongside);
    expect(await early).not.toBe(await queuedAlongside);
  });

  it('never sends a request the budget says the panel would refuse: 0 × 429 across windows', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 10, windowMs: 60_000 } });
    const { stack, tooMany, sentBetween } = stackFor(panel);
    const fetches = chatIds.slice(0, 45).map((chatId) => stack.client.getDepartments(chatId, { priority: 'join' }));
    await elapse(5 * 60_000);
    expect((await Promise.all(fetches)).every((result) => result.ok)).toBe(true);
    expect(tooMany()).toBe(0);
    for (let window = 0; window < 5; window++) {
      expect(sentBetween(window * 60_000, (window + 1) * 60_000)).toBeLessThanOrEqual(10);
    }
  });

  it.each([
    ['draft 6', { standardHeaders: 'draft-6', legacyHeaders: false }],
    ['draft 7', { standardHeaders: 'draft-7', legacyHeaders: false }],
    ['draft 8', { standardHeaders: 'draft-8', legacyHeaders: false }],
    ['the legacy X-RateLimit-* only', { standardHeaders: false, legacyHeaders: true }],
  ] as const)('learns a limit that disagrees with config.lua from %s headers', async (_name, style) => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 20, windowMs: 60_000, ...style } });
    const { stack, tooMany, lines } = stackFor(panel);
    const fetches = chatIds.slice(0, 57).map((chatId) => stack.client.getDepartments(chatId, { priority: 'join' }));
    // 19 a window: the 20th of each is kept for a duty call.
    await elapse(3 * 60_000 + 5_000);
    expect((await Promise.all(fetches)).every((result) => result.ok)).toBe(true);
    // config.lua says 200, but nothing more than one request leaves before the first answer tells the truth.
    expect(tooMany()).toBe(0);
    expect(stack.budget.snapshot()).toMatchObject({ limit: 20, limitSource: 'panel' });
    expect(lines.filter((line) => line.includes('headers say 20 requests per 60 s (config.lua: 200'))).toHaveLength(1);
  });

  it('uses at least 95% of the budget while work is waiting', async () => {
    const panel = mock.replace({ data: users.data });
    const { stack, sentBetween, tooMany } = stackFor(panel);
    const fetches = chatIds.map((chatId) => stack.client.getDepartments(chatId, { priority: 'join' }));
    await elapse(4 * 60_000);
    // Four full windows of 200 while a thousand fetches wait.
    expect(sentBetween(0, 4 * 60_000)).toBeGreaterThanOrEqual(0.95 * 800);
    expect(tooMany()).toBe(0);
    await elapse(2 * 60_000);
    expect((await Promise.all(fetches)).every((result) => result.ok)).toBe(true);
  });

  it('after a 429 despite the budget, waits for the reset and sends the request again: nothing is dropped', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 10, windowMs: 60_000 } });
    const { stack, answers, lines } = stackFor(panel, { limit: 10, windowMs: 60_000 });
    await waitFor(stack.client.getDepartments(chatIds[0] as string));
    // Another resource on this server (the same IP) spends the rest of the window behind the bridge's back.
    await spendWindow(9);

    const duty = stack.client.setDuty('off', { chatId: chatIds[1] as string });
    await settle();
    expect(answers().at(-1)).toBe('POST /api/leo/duty/off 429');
    expect(lines.filter((line) => line.includes('429') && line.includes('queued again'))).toHaveLength(1);

    await elapse(59_000);
    expect(answers().filter((answer) => answer.startsWith('POST'))).toHaveLength(1);
    await elapse(1_000);
    expect(await duty).toMatchObject({ ok: true });
    expect(answers().filter((answer) => answer.startsWith('POST'))).toEqual([
      'POST /api/leo/duty/off 429',
      'POST /api/leo/duty/off 200',
    ]);
    expect(stack.scheduler.stats().rateLimited).toBe(1);
  });

  it('follows a panel that forgets its window (a restart), still without a 429', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 10, windowMs: 60_000 } });
    const { stack, tooMany } = stackFor(panel, { limit: 10, windowMs: 60_000 });
    const fetches = chatIds.slice(0, 30).map((chatId) => stack.client.getDepartments(chatId, { priority: 'join' }));
    await elapse(30_000);
    const before = stack.budget.snapshot();
    expect(before.resetAt).toBe(START_TIME + 60_000);

    panel.store.rateLimiter.reset();
    await elapse(10_000);
    // The next answer came from a new window that opened with it, and the budget took its word.
    const after = stack.budget.snapshot();
    expect(after.resetAt).toBeGreaterThan(START_TIME + 90_000);
    expect(after.remaining).toBeGreaterThan(before.remaining);

    await elapse(180_000);
    expect((await Promise.all(fetches)).every((result) => result.ok)).toBe(true);
    expect(tooMany()).toBe(0);
  });

  it('keeps sending at the nominal pace when every reset the panel gives is in the past', async () => {
    const panel = mock.replace({ data: users.data });
    // A panel with a broken clock: every answer says 0 left and a reset two minutes ago.
    mock.use(
      http.get(`${PANEL_URL}/api/leo/user/:chatId/departments`, () =>
        HttpResponse.json(
          { ok: false, error: 'user_not_found', message: 'no such user' },
          {
            status: 404,
            headers: {
              'X-RateLimit-Limit': '200',
              'X-RateLimit-Remaining': '0',
              'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) - 120),
            },
          },
        ),
      ),
    );
    const { stack } = stackFor(panel);
    const fetches = chatIds.slice(0, 400).map((chatId) => stack.client.getDepartments(chatId, { priority: 'join' }));
    await elapse(60_000);
    // Neither stalled (waiting for a reset that already happened) nor flooding: about the nominal 200 per minute.
    const sent = stack.scheduler.stats().sent;
    expect(sent).toBeGreaterThanOrEqual(150);
    expect(sent).toBeLessThanOrEqual(220);
    await elapse(120_000);
    expect((await Promise.all(fetches)).every((result) => !result.ok && result.failure.kind === 'not_found')).toBe(
      true,
    );
  });

  it('takes back a duty call withdrawn while it waits for its turn, without sending it', async () => {
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 5, windowMs: 60_000 } });
    const { stack, answers } = stackFor(panel, { limit: 5, windowMs: 60_000 });
    await waitFor(Promise.all(chatIds.slice(0, 5).map((chatId) => stack.client.getDepartments(chatId))));
    const abort = new AbortController();
    let sent = false;
    const call = stack.client.setDuty(
      'on',
      { chatId: chatIds[1] as string, departmentId: 1, rankId: 1 },
      { signal: abort.signal, onSent: () => (sent = true) },
    );
    abort.abort();
    expect(await call).toMatchObject({ ok: false, failure: { kind: 'cancelled' } });
    await elapse(60_000);
    expect(sent).toBe(false);
    expect(answers().filter((answer) => answer.startsWith('POST'))).toEqual([]);
  });

  it('asks the community again at once for a duty call that came while a lower class was being asked about', async () => {
    const panel = mock.replace({ data: users.data });
    const community = heldCommunity();
    const { stack, dispatched } = stackFor(panel, undefined, community.shared);
    void stack.client.getDepartments(chatIds[0] as string);
    await settle();
    expect(community.asked).toEqual(['waiting']);
    // One question to Redis at a time: the duty call waits for the answer about the player waiting.
    const duty = stack.client.setDuty('off', { chatId: chatIds[1] as string });
    await settle();
    expect(community.asked).toEqual(['waiting']);
    // The player waiting must wait for the window's last slot; the duty call must not wait with them.
    community.answer({ granted: false, retryInMs: 48_000 });
    await settle();
    expect(community.asked).toEqual(['waiting', 'duty']);
    community.answer({ granted: true, ticket: 1 });
    await waitFor(duty, 1_000);
    expect(dispatched).toEqual(['POST /api/leo/duty/off']);
  });
});
