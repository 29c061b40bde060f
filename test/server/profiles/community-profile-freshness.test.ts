// A profile taken from the community's copy (BRIDGE_REDIS_URL) is fresh for what is left of its freshness, and that
// runs on this server's monotonic clock: the copy's age comes from Redis's clock (ttlMs - PTTL), never from two
// servers' wall clocks agreeing. The Redis side is test/e2e/community-profiles.test.ts; this is the cache's side.
import { NEVER, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PanelResult } from '../../../server/panel/panel-result.js';
import type { CommunityProfiles, SharedProfile } from '../../../server/profiles/index.js';
import type { ProfileEntry, ProfileUpdate } from '../../../server/profiles/profile.js';
import { ProfileCache } from '../../../server/profiles/profile-cache.js';
import { elapse, settle, useVirtualTime, virtualClocks } from '../support/virtual-runtime.js';

const ALEX = '284619375016482817';
const TTL = 300_000;
const LSPD = { id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 3, name: 'Officer' }, data: {} };

function cacheWith(shared: SharedProfile | undefined) {
  const asked: string[] = [];
  const published: Array<[ProfileEntry, number]> = [];
  const panel = {
    getDepartments: async (chatId: string): Promise<PanelResult<{ departments: (typeof LSPD)[] }>> => {
      asked.push(chatId);
      return { ok: true, value: { departments: [LSPD] }, status: 200 };
    },
  };
  const community: CommunityProfiles = {
    read: async () => shared,
    publish: (entry, ttlMs) => published.push([entry, ttlMs]),
    offer: () => {},
    renewed$: new Subject<string>(),
    connected$: NEVER,
  };
  const cache = new ProfileCache(panel as never, { ttlMs: TTL, ...virtualClocks, community });
  const held: ProfileUpdate[] = [];
  cache.changes$.subscribe((update) => held.push(update));
  return { cache, asked, published, held };
}

// Server A's wall clock is an hour ahead of this one's.
const fromA = (ageMs: number): SharedProfile => ({
  entry: { kind: 'found', chatId: ALEX, departments: [LSPD], fetchedAt: Date.now() + 3_600_000 - ageMs },
  ageMs,
});

describe("the community's copy of a profile in this server's cache", () => {
  beforeEach(() => useVirtualTime());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is taken without asking the panel, and is fresh for what was left of its freshness on the monotonic clock', async () => {
    const { cache, asked, published, held } = cacheWith(fromA(100_000));
    const lookup = await cache.get(ALEX);
    expect(lookup).toMatchObject({ ok: true, entry: { chatId: ALEX } });
    expect(asked).toEqual([]);
    expect(published).toEqual([]); // not the panel's answer to this server: nothing to announce
    // Its fetch time on this server's wall clock, so the KVP copy ages right at the next start.
    expect(held).toMatchObject([
      { kind: 'held', chatId: ALEX, ttlMs: TTL, entry: { fetchedAt: Date.now() - 100_000 } },
    ]);
    expect(cache.freshForMs(ALEX)).toBe(200_000);

    // The wall clock jumps a day ahead: freshness does not care.
    vi.setSystemTime(Date.now() + 86_400_000);
    expect(cache.isFresh(ALEX)).toBe(true);
    await elapse(199_999);
    expect(cache.isFresh(ALEX)).toBe(true);
    // lru-cache counts an entry stale once its age is past (not at) its TTL.
    await elapse(2);
    expect(cache.isFresh(ALEX)).toBe(false);
  });

  it('a copy with no freshness left for this server is not taken: the panel is asked, and its answer published', async () => {
    const { cache, asked, published } = cacheWith(fromA(TTL));
    await cache.get(ALEX);
    await settle();
    expect(asked).toEqual([ALEX]);
    expect(published).toMatchObject([[{ chatId: ALEX, kind: 'found' }, TTL]]);
  });

  it('/dutyrefresh (force) never takes the copy: the panel is asked and the community hears of it', async () => {
    const { cache, asked, published } = cacheWith(fromA(1_000));
    await cache.get(ALEX, { force: true });
    expect(asked).toEqual([ALEX]);
    expect(published).toHaveLength(1);
  });
});
