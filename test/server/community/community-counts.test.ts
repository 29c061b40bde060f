// The community's on-duty counts (server/community/community-counts.ts) on a real redis-server, two servers' views
// of them, each on a clock of its own that the test moves: the beat runs when the test lets it, and what this server
// keeps while Redis is gone expires on its own clock.
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CommunityLink } from '../../../server/community/community.js';
import { COUNTS_TTL_MS, startCommunityCounts } from '../../../server/community/community-counts.js';
import { sharedReader } from '../../../server/community/read-shared.js';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import { createLogger } from '../../../server/kernel/log.js';
import type { OnDutyCounts } from '../../../shared/events.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

/** A server's clock and timers, moved by the test: `beat()` ends every sleep that is due. */
function manualClock() {
  let now = 1_000_000;
  const sleepers: Array<{ until: number; wake: () => void }> = [];
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ until: now + ms, wake })),
    advance(ms: number) {
      now += ms;
      for (const sleeper of sleepers.splice(0)) {
        if (sleeper.until <= now) sleeper.wake();
        else sleepers.push(sleeper);
      }
    },
  };
}

const until = (counts$: Observable<OnDutyCounts>, total: number) =>
  firstValueFrom(counts$.pipe(filter((counts) => counts.total === total)));

describe.skipIf(!redisAvailable())("the community's on-duty counts", () => {
  let redis: RedisServer;
  const closing: Array<() => void> = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());
  afterEach(() => {
    for (const close of closing.splice(0)) close();
  });

  function server(id: string) {
    const lines: string[] = [];
    const logger = createLogger({ print: (line) => lines.push(line), secrets: () => [] });
    const parsed = parseRedisUrl(redis.url());
    if (!parsed.ok) throw new Error(parsed.error);
    const link = openRedisLink({ target: parsed.target, panel: 'http://panel.test', logger });
    const clock = manualClock();
    const counts = startCommunityCounts({ link, readShared: sharedReader(logger), serverId: id, logger, ...clock });
    closing.push(() => {
      counts.stop();
      link.close();
    });
    return { link, clock, counts, lines };
  }
  const connected = (link: CommunityLink) => firstValueFrom(link.connected$);

  it("while Redis is gone, the others' last counts count until they would have expired on this server's clock", async () => {
    const a = server('a');
    const b = server('b');
    await Promise.all([connected(a.link), connected(b.link)]);
    const seen: OnDutyCounts[] = [];
    b.counts.counts$.subscribe((counts) => seen.push(counts));
    a.counts.publish({ lspd: 2, total: 2 });
    await until(b.counts.counts$, 2);

    const down = firstValueFrom(b.link.up$.pipe(filter((up) => !up)));
    await redis.kill();
    await down;
    // B's own change counts at once, A's last counts with it.
    b.counts.publish({ safr: 1, total: 1 });
    expect(seen.at(-1)).toEqual({ lspd: 2, safr: 1, total: 3 });
    // B's beats fail; A's counts stay until the TTL has passed on B's clock, not a moment before.
    b.clock.advance(COUNTS_TTL_MS - 100);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.at(-1)).toEqual({ lspd: 2, safr: 1, total: 3 });
    b.clock.advance(2_000);
    await until(b.counts.counts$, 1);
    expect(seen.at(-1)).toEqual({ safr: 1, total: 1 });

    // Redis back, empty: both write again what they own, and the sum is whole again.
    await redis.restart();
    await until(b.counts.counts$, 3);
    expect(seen.at(-1)).toEqual({ lspd: 2, safr: 1, total: 3 });
  });
});
