import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { PlayerRegistry } from '../../../server/kernel/player-registry.js';
import type { PanelResult } from '../../../server/panel/panel-result.js';
import type { ProfileRequestClass } from '../../../server/panel/request-queues.js';
import type { ProfileServed } from '../../../server/profiles/profile.js';
import { ProfileCache } from '../../../server/profiles/profile-cache.js';
import { Profiles } from '../../../server/profiles/profiles.js';

const CHAT_ID = '284619375016482817';
const TTL = 300_000;
const answer: PanelResult<{ departments: never[] }> = { ok: true, value: { departments: [] }, status: 200 };

function service() {
  let now = 1_000_000;
  const asked: Array<{ priority?: ProfileRequestClass; fresh?: boolean }> = [];
  const answers: Array<() => void> = [];
  const panel = {
    getDepartments: (_chatId: string, options: { priority?: ProfileRequestClass; fresh?: boolean } = {}) => {
      asked.push(options);
      return new Promise<typeof answer>((resolve) => answers.push(() => resolve(answer)));
    },
  };
  const cache = new ProfileCache(panel as never, { ttlMs: TTL, now: () => now, wallNow: () => now });
  const players = new PlayerRegistry();
  players.add(7, 'Alex', [`chat:${CHAT_ID}`]);
  const profiles = new Profiles(cache, players, createLogger({ print: () => {} }));
  const refreshed: ProfileServed[] = [];
  profiles.profiles$.subscribe((update) => {
    if (update.kind === 'served') refreshed.push(update);
  });
  return {
    profiles,
    asked,
    refreshed,
    answerAll: async () => {
      for (const resolve of answers.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('a revalidation a client asked for', () => {
  it('waits in the class of a waiting player, not a background class, and arrives on profiles$', async () => {
    const s = service();
    const first = s.profiles.view(7, { priority: 'join' });
    await s.answerAll();
    await first;
    s.advance(TTL + 1);
    s.profiles.revalidate(7);
    expect(s.asked.at(-1)).toEqual({ priority: 'waiting', fresh: true });
    await s.answerAll();
    expect(s.refreshed).toEqual([
      expect.objectContaining({
        src: 7,
        checksDuty: true,
        view: expect.objectContaining({ payload: expect.objectContaining({ ok: true }) }),
      }),
    ]);
  });

  it('moves a background refresh already waiting up to that class by joining it (the scheduler shares one request)', async () => {
    const s = service();
    const first = s.profiles.view(7, { priority: 'join' });
    await s.answerAll();
    await first;
    s.advance(TTL + 1);
    await s.profiles.view(7);
    expect(s.asked.at(-1)).toEqual({ priority: 'other-refresh', fresh: true });
    s.profiles.revalidate(7);
    // Not forced: the scheduler's single flight joins the queued one and moves it up.
    expect(s.asked.at(-1)).toEqual({ priority: 'waiting', fresh: false });
    await s.answerAll();
    expect(s.refreshed).toHaveLength(1);
  });
});
