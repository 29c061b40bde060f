import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { PlayerRegistry } from '../../../server/kernel/player-registry.js';
import type { PanelResult } from '../../../server/panel/panel-result.js';
import type { ProfileUpdate } from '../../../server/profiles/profile.js';
import { ProfileCache } from '../../../server/profiles/profile-cache.js';
import { Profiles } from '../../../server/profiles/profiles.js';
import { elapse, settle, useVirtualTime, virtualClocks } from '../support/virtual-runtime.js';

const ALEX = '284619375016482817';
const JAMIE = '391827465019283746';
const TTL = 300_000;
const LSPD = { id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 3, name: 'Officer' } };

type Answer = PanelResult<{ departments: (typeof LSPD)[] }>;

function bridge() {
  let next: Answer = { ok: true, value: { departments: [LSPD] }, status: 200 };
  // Answered when the test says, as a panel across the network; a new result per request, as the panel client gives
  // (the cache recognises one shared request by its result).
  const waiting: Array<() => void> = [];
  const panel = {
    getDepartments: () => new Promise<Answer>((resolve) => waiting.push(() => resolve({ ...next }))),
  };
  const cache = new ProfileCache(panel as never, { ttlMs: TTL, ...virtualClocks });
  const players = new PlayerRegistry();
  players.add(7, 'Alex', [`chat:${ALEX}`]);
  players.add(8, 'Jamie', [`chat:${JAMIE}`]);
  players.add(9, 'Nobody', []);
  const profiles = new Profiles(cache, players, createLogger({ print: () => {} }));
  const seen = (chatId: string) => {
    const updates: ProfileUpdate[] = [];
    profiles.profile$(chatId).subscribe((update) => updates.push(update));
    return updates;
  };
  const statuses = (updates: ProfileUpdate[]) =>
    updates.map((update) => (update.kind === 'served' ? `${update.kind} ${update.status}` : update.kind));
  /** `work` with every panel request it makes answered. */
  const answered = async <T>(work: Promise<T>) => {
    await settle();
    for (const answer of waiting.splice(0)) answer();
    return work;
  };
  return {
    profiles,
    answered,
    seen,
    statuses,
    answer: (answer: Answer) => {
      next = answer;
    },
  };
}

describe("profile$(chatId): one chat account's profile", () => {
  beforeEach(() => useVirtualTime());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is held and served fresh, then cached within its TTL, then revalidating past it with the fresh one after', async () => {
    const b = bridge();
    const alex = b.seen(ALEX);
    await b.answered(b.profiles.serve(7));
    await b.profiles.serve(7);
    await elapse(TTL + 1);
    // The stale profile is served at once; its refresh waits for the panel.
    await b.profiles.serve(7);
    expect(b.statuses(alex).at(-1)).toBe('served revalidating');
    await b.answered(Promise.resolve());
    await settle();
    expect(b.statuses(alex)).toEqual([
      'held',
      'served fresh',
      'served cached',
      'served revalidating',
      'held',
      'served fresh',
    ]);
    // The background refresh is checked against the duty; the copies a ready client gets are not.
    expect(alex.filter((u) => u.kind === 'served').map((u) => u.kind === 'served' && u.checksDuty)).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it('is served stale when the panel cannot be asked, and holds nothing new', async () => {
    const b = bridge();
    const alex = b.seen(ALEX);
    await b.answered(b.profiles.serve(7));
    b.answer({ ok: false, failure: { kind: 'network', message: 'reset' } });
    const view = await b.answered(b.profiles.serve(7, { force: true, checksDuty: true }));
    expect(view.stale).toBe(true);
    expect(b.statuses(alex)).toEqual(['held', 'served fresh', 'served stale']);
  });

  it("carries only that account's updates", async () => {
    const b = bridge();
    const alex = b.seen(ALEX);
    await b.answered(b.profiles.serve(8));
    await b.answered(b.profiles.view(8));
    expect(alex).toEqual([]);
  });

  it('is not where a player without a chat account hears why there is no profile: profiles$ carries that', async () => {
    const b = bridge();
    const all: ProfileUpdate[] = [];
    b.profiles.profiles$.subscribe((update) => all.push(update));
    await b.answered(b.profiles.serve(9));
    expect(all).toEqual([
      expect.objectContaining({
        kind: 'served',
        src: 9,
        chatId: undefined,
        status: 'none',
        view: expect.objectContaining({ payload: expect.objectContaining({ ok: false, error: 'no_identifier' }) }),
      }),
    ]);
  });

  it('holds a lookup no player waits for without serving it', async () => {
    const b = bridge();
    const alex = b.seen(ALEX);
    await b.answered(b.profiles.view(7, { priority: 'join' }));
    expect(b.statuses(alex)).toEqual(['held']);
  });
});
