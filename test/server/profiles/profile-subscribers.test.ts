import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import type { PanelResult } from '../../../server/panel/panel-result.js';
import type { ProfileEntry, ProfileServed, ProfileUpdate } from '../../../server/profiles/profile.js';
import { ProfileCache } from '../../../server/profiles/profile-cache.js';
import { reconcileDuties, wireProfileSubscribers } from '../../../server/profiles/profile-subscribers.js';
import { payloadOf } from '../../../server/profiles/profiles.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import { elapse, START_TIME, settle, useVirtualTime, virtualClocks } from '../support/virtual-runtime.js';

const ALEX = '284619375016482817';
const JAMIE = '391827465019283746';
const TTL = 300_000;
const DAY = 86_400_000;
const LSPD = { id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 3, name: 'Officer' }, data: {} };

const found = (chatId: string, fetchedAt = START_TIME): ProfileEntry => ({
  kind: 'found',
  chatId,
  departments: [LSPD],
  fetchedAt,
});

const served = (src: number, entry: ProfileEntry | undefined, checksDuty: boolean): ProfileServed => ({
  kind: 'served',
  src,
  chatId: entry?.chatId,
  status: entry ? 'fresh' : 'none',
  view: entry
    ? { payload: payloadOf(entry), entry }
    : { payload: { ok: false, error: 'panel_unavailable', message: 'the panel is unavailable' }, entry: undefined },
  checksDuty,
});

function wired({ kept = [] as Array<{ entry: ProfileEntry; ttlMs: number }>, max = 16 } = {}) {
  const store = createMemoryStore();
  for (const { entry, ttlMs } of kept) store.set(`profile:${entry.chatId}`, JSON.stringify({ ttlMs, entry }));
  const answer: PanelResult<{ departments: (typeof LSPD)[] }> = {
    ok: true,
    value: { departments: [LSPD] },
    status: 200,
  };
  const cache = new ProfileCache({ getDepartments: async () => ({ ...answer }) } as never, {
    ttlMs: TTL,
    max,
    ...virtualClocks,
  });
  const updates$ = new Subject<ProfileUpdate>();
  // The cache's own changes reach the subscribers as they do through Profiles.profiles$.
  cache.changes$.subscribe(updates$);
  const connected = new Set([7, 8]);
  const happened: unknown[][] = [];
  const lines: string[] = [];
  let failPushes = 0;
  const subscription = wireProfileSubscribers({
    profiles: { profiles$: updates$ },
    cache,
    store,
    isConnected: (src) => connected.has(src),
    emitClient: (event, src, ...args) => {
      if (failPushes > 0 && event === PUBLIC_EVENTS.profile) {
        failPushes--;
        throw new Error('the client is gone');
      }
      happened.push([event, src, ...args]);
    },
    sendDutyState: (src) => happened.push(['dutyState', src]),
    logger: createLogger({ print: (line) => lines.push(line) }),
  });
  // As the composition root does: the duty reconciliation after the push.
  subscription.add(
    reconcileDuties(updates$, {
      reconcile: (src, profile) => happened.push(['reconcile', src, profile.chatId]),
      logger: createLogger({ print: (line) => lines.push(line) }),
    }),
  );
  return {
    store,
    cache,
    updates$,
    connected,
    happened,
    lines,
    subscription,
    failNextPush: () => {
      failPushes = 1;
    },
  };
}

describe('the profile subscribers', () => {
  beforeEach(() => useVirtualTime());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('push a served profile to a connected client, then its duty snapshot, then check its duty', () => {
    const w = wired();
    const alex = found(ALEX);
    w.updates$.next(served(7, alex, true));
    expect(w.happened).toEqual([
      [PUBLIC_EVENTS.profile, 7, payloadOf(alex)],
      ['dutyState', 7],
      ['reconcile', 7, ALEX],
    ]);
  });

  it('tell a player who left nothing', () => {
    const w = wired();
    w.connected.delete(8);
    w.updates$.next(served(8, found(JAMIE), false));
    expect(w.happened).toEqual([]);
  });

  it('check no duty against the copy a ready client gets, nor against an answer that is no profile', () => {
    const w = wired();
    w.updates$.next(served(7, found(ALEX), false));
    w.updates$.next(served(8, undefined, true));
    w.updates$.next(served(8, { kind: 'not_registered', chatId: JAMIE, fetchedAt: START_TIME }, false));
    expect(w.happened.filter(([what]) => what === 'reconcile')).toEqual([]);
    expect(w.happened.filter(([what]) => what === PUBLIC_EVENTS.profile)).toHaveLength(3);
  });

  it("check the duty against the panel's own word that the account is unknown (deleted or banned)", () => {
    const w = wired();
    w.updates$.next(served(8, { kind: 'not_registered', chatId: JAMIE, fetchedAt: START_TIME }, true));
    expect(w.happened.filter(([what]) => what === 'reconcile')).toEqual([['reconcile', 8, JAMIE]]);
  });

  it('log a push that throws and go on with the next profile', () => {
    const w = wired();
    w.failNextPush();
    w.updates$.next(served(7, found(ALEX), false));
    w.updates$.next(served(8, found(JAMIE), false));
    expect(w.lines.filter((line) => line.includes('profile push failed: Error: the client is gone'))).toHaveLength(1);
    expect(w.happened).toEqual([
      [PUBLIC_EVENTS.profile, 8, payloadOf(found(JAMIE))],
      ['dutyState', 8],
    ]);
  });

  it('write what the cache holds to KVP and delete what it lets go (the LRU bound)', async () => {
    const w = wired({ max: 1 });
    await w.cache.get(ALEX);
    expect(JSON.parse(w.store.get(`profile:${ALEX}`) ?? 'null')).toEqual({ ttlMs: TTL, entry: found(ALEX) });
    await w.cache.get(JAMIE);
    expect([...w.store.entries.keys()]).toEqual([`profile:${JAMIE}`]);
  });

  it('load what the last run kept, by wall-clock age, and delete what is too old even as a fallback', async () => {
    const w = wired({
      kept: [
        { entry: found(ALEX, START_TIME - 1_000), ttlMs: TTL },
        { entry: found(JAMIE, START_TIME - TTL - DAY - 1), ttlMs: TTL },
      ],
    });
    expect(w.lines.filter((line) => line.includes('1 player profile(s) kept from the last run'))).toHaveLength(1);
    expect(w.cache.freshForMs(ALEX)).toBe(TTL - 1_000);
    expect(w.cache.peek(JAMIE)).toBeUndefined();
    expect([...w.store.entries.keys()]).toEqual([`profile:${ALEX}`]);
  });

  it('stop, all three, when unsubscribed', async () => {
    const w = wired();
    w.subscription.unsubscribe();
    w.updates$.next(served(7, found(ALEX), true));
    await w.cache.get(ALEX);
    await settle();
    await elapse(0);
    expect(w.happened).toEqual([]);
    expect(w.store.entries.size).toBe(0);
  });
});
