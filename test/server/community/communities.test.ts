// One panel named two ways (localhost and 127.0.0.1, two paths) hashes to two communities that share nothing: a
// server that finds another community on its Redis tells the owner once, on a real redis-server.
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMUNITIES_KEY,
  communityId,
  communityPrefix,
  watchOtherCommunities,
} from '../../../server/community/communities.js';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import { createLogger } from '../../../server/kernel/log.js';
import { readPanelSettings } from '../../../server/kernel/settings.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

/** A server's timers, moved by the test: `beat()` ends every sleep that is due. */
function manualSleep() {
  const sleepers: Array<() => void> = [];
  return {
    sleep: (_ms: number) => new Promise<void>((wake) => sleepers.push(wake)),
    beat: () => {
      for (const wake of sleepers.splice(0)) wake();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the community of a panel', () => {
  it.each([
    ['HTTPS://Panel.Example.com:443/', 'https://panel.example.com'],
    ['https://panel.example.com/api/leo/', 'https://panel.example.com'],
    ['http://127.0.0.1:80//', 'http://127.0.0.1'],
  ])(
    '%s is the community of %s (scheme and host lower-cased, default port and trailing slashes dropped)',
    (written, as) => {
      const read = (base: string) => {
        const settings = readPanelSettings((name) => (name === 'BRIDGE_API_BASE' ? base : 'a-token-of-the-panel-1234'));
        if (!settings.ok) throw new Error(settings.errors.join('; '));
        return settings.settings.apiBase;
      };
      expect(read(written)).toBe(as);
      expect(communityPrefix(read(written))).toBe(communityPrefix(as));
      expect(communityPrefix(as)).toBe(`bridge:${communityId(as)}:`);
    },
  );
});

describe.skipIf(!redisAvailable())('another community on the same Redis', () => {
  let redis: RedisServer;
  const closing: Array<() => void> = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());
  afterEach(async () => {
    for (const close of closing.splice(0)) close();
    await redis.command('FLUSHALL');
  });

  /** A server of the community of `panel`: its link, its watch and the lines it printed. */
  async function serverOf(panel: string, ttlMs?: number) {
    const lines: string[] = [];
    const logger = createLogger({ print: (line) => lines.push(line) });
    const parsed = parseRedisUrl(redis.url());
    if (!parsed.ok) throw new Error(parsed.error);
    const id = communityId(panel);
    const link = openRedisLink({ target: parsed.target, panel, logger });
    const timers = manualSleep();
    const connected = firstValueFrom(link.connected$);
    const watch = watchOtherCommunities({ link, id, panel, logger, sleep: timers.sleep, ttlMs });
    closing.push(() => {
      watch.stop();
      link.close();
    });
    await connected;
    await settle();
    return { id, lines, beat: timers.beat, warnings: () => lines.filter((line) => line.startsWith('WARN')) };
  }

  it('localhost and 127.0.0.1: the server that comes second warns once, naming both communities and its panel', async () => {
    const first = await serverOf('http://127.0.0.1:3000');
    const second = await serverOf('http://localhost:3000');
    expect(second.warnings()).toEqual([
      `WARN: another community, ${first.id}, uses this Redis (BRIDGE_REDIS_URL); this server is community ${second.id} of the panel http://localhost:3000. If both name one panel, give every server the same BRIDGE_API_BASE: until then they share no budget, profiles or counts (compare each server's start line)`,
    ]);
    // The first hears of the second at its next beat; neither tells it again.
    first.beat();
    second.beat();
    await settle();
    expect(first.warnings()).toEqual([expect.stringContaining(`another community, ${second.id}, uses this Redis`)]);
    first.beat();
    second.beat();
    await settle();
    expect(first.warnings()).toHaveLength(1);
    expect(second.warnings()).toHaveLength(1);
    // Only ids are kept in Redis, never a panel's address.
    expect(await redis.command('ZRANGE', COMMUNITIES_KEY, '0', '-1')).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
  });

  it('servers of one community: no warning', async () => {
    const one = await serverOf('https://panel.example.com');
    const two = await serverOf('https://panel.example.com');
    one.beat();
    two.beat();
    await settle();
    expect([...one.warnings(), ...two.warnings()]).toEqual([]);
  });

  it('a community none of whose servers beat for its TTL (by Redis’s clock) is no longer counted', async () => {
    const gone = await serverOf('https://old-panel.example.com', 100);
    closing.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const later = await serverOf('https://panel.example.com', 100);
    expect(later.warnings()).toEqual([]);
    expect(await redis.command('ZRANGE', COMMUNITIES_KEY, '0', '-1')).toEqual([later.id]);
    expect(gone.id).not.toBe(later.id);
  });

  it('another program’s value under the key: set aside with one WARN, and the key written again', async () => {
    await redis.command('SET', COMMUNITIES_KEY, 'not a sorted set');
    const one = await serverOf('https://panel.example.com');
    expect(one.warnings()).toEqual([expect.stringContaining(`it is set aside as ${COMMUNITIES_KEY}:set-aside`)]);
    one.beat();
    await settle();
    expect(await redis.command('ZRANGE', COMMUNITIES_KEY, '0', '-1')).toEqual([one.id]);
  });
});
