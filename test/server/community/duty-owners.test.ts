// The community's duty owners against a real redis-server: who holds each account's duty, what a crashed server may
// end, who hears that another server took an account, and what is set aside when our keys hold something else.
import { filter, firstValueFrom, type Observable, take, toArray } from 'rxjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { communityPrefix } from '../../../server/community/community-keys.js';
import type { DutyOwners } from '../../../server/community/duty-owner-api.js';
import { startDutyOwners } from '../../../server/community/duty-owners.js';
import { sharedReader } from '../../../server/community/read-shared.js';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-url.js';
import { createLogger } from '../../../server/kernel/log/logger.js';
import { createMemoryStore } from '../../../server/kernel/storage/key-value-store.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

const ALEX = '284619375016482817';
const PREFIX = communityPrefix('http://panel.test');

describe.skipIf(!redisAvailable())('the duty owners in Redis', () => {
  let redis: RedisServer;
  const closing: Array<() => void> = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    return () => redis.stop();
  });
  afterEach(async () => {
    for (const close of closing.splice(0)) close();
    await redis.command('FLUSHALL');
  });

  /** One server of the community: its own link, KVP and log; `sleeps` records the grace waits it asked for. */
  async function server(store = createMemoryStore()) {
    const lines: string[] = [];
    const logger = createLogger({ print: (line) => lines.push(line) });
    const parsed = parseRedisUrl(redis.url());
    if (!parsed.ok) throw new Error(parsed.error);
    const link = openRedisLink({ target: parsed.target, panel: 'http://panel.test', logger });
    closing.push(() => link.close());
    const sleeps: number[] = [];
    const owners = startDutyOwners({
      ...{ link, readShared: sharedReader(logger), store, logger },
      now: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await firstValueFrom(link.up$.pipe(filter((up) => up)));
    return { owners, lines, store, sleeps, link };
  }

  const record = async (chatId = ALEX) => {
    const raw = (await redis.command('GET', `${PREFIX}duty-owner:${chatId}`)) as string | null;
    return raw === null ? null : JSON.parse(raw);
  };
  /** Polls what Redis or a server says until it holds (a reconnection takes ioredis's backoff), at most 10 s. */
  const until = async (check: () => Promise<boolean>) => {
    for (let tries = 0; tries < 2_000; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('never came');
  };
  const heard = (owners: DutyOwners): Observable<string> => owners.takenElsewhere$;

  it('keeps a stable identity in KVP: the same after a restart, a damaged one replaced with one line', async () => {
    const store = createMemoryStore();
    const first = await server(store);
    const again = await server(store);
    expect(again.owners.server).toBe(first.owners.server);
    expect(first.owners.server).toMatch(/^[0-9a-f]{16}$/);

    store.set('community:server', 'not-an-id');
    const damaged = await server(store);
    expect(damaged.owners.server).not.toBe(first.owners.server);
    expect(damaged.lines.filter((line) => line.includes('community:server'))).toEqual([
      expect.stringMatching(/^WARN: community:server in KVP is not a server identity/),
    ]);
  });

  it('a claim names the server and the shift; its end is marked only while it is still the owner', async () => {
    const a = await server();
    a.owners.claim(ALEX, '1:100');
    await until(async () => (await record()) !== null);
    expect(await record()).toEqual({ server: a.owners.server, shift: '1:100' });

    a.owners.release(ALEX, '2:200');
    a.owners.release(ALEX, '1:100');
    await until(async () => (await record())?.ended === true);
    expect(await record()).toEqual({ server: a.owners.server, shift: '1:100', ended: true });
    expect(Number(await redis.command('TTL', `${PREFIX}duty-owner:${ALEX}`))).toBeGreaterThan(0);
  });

  it('crash recovery: its own shift is ended there, another server’s claim is left, no owner is believed after the grace', async () => {
    const a = await server();
    const b = await server();
    a.owners.claim(ALEX, '1:100');
    await until(async () => (await record())?.shift === '1:100');
    expect(await a.owners.leftOpen(ALEX, '1:100')).toEqual({ kind: 'ours' });
    expect(await record()).toMatchObject({ ended: true });

    b.owners.claim(ALEX, '4:400');
    await until(async () => (await record())?.shift === '4:400');
    expect(await a.owners.leftOpen(ALEX, '1:100')).toEqual({ kind: 'taken', server: b.owners.server });
    expect(await record()).toEqual({ server: b.owners.server, shift: '4:400' });

    await redis.command('DEL', `${PREFIX}duty-owner:${ALEX}`);
    const sleptBefore = a.sleeps.length;
    expect(await a.owners.leftOpen(ALEX, '1:100')).toEqual({ kind: 'nobody' });
    // The grace since the connection, waited once (this test's clock stands still).
    expect(a.sleeps.slice(sleptBefore)).toEqual([8_000]);
  });

  it('tells a server holding an account that another server took it, not the one that took it', async () => {
    const a = await server();
    const b = await server();
    a.owners.claim(ALEX, '1:100');
    await until(async () => (await record())?.shift === '1:100');
    const taken = firstValueFrom(heard(a.owners));
    const bHeard: string[] = [];
    b.owners.takenElsewhere$.subscribe((chatId) => bHeard.push(chatId));

    b.owners.claim(ALEX, '4:400');
    expect(await taken).toBe(ALEX);
    expect(bHeard).toEqual([]);
  });

  it('two claims in flight at once: the last one written wins and only the other server hears it lost', async () => {
    const a = await server();
    const b = await server();
    const lost: string[] = [];
    a.owners.takenElsewhere$.subscribe(() => lost.push('a'));
    b.owners.takenElsewhere$.subscribe(() => lost.push('b'));
    // Redis holds every write for a moment: both claims are on their way when each hears the other's.
    await redis.command('CLIENT', 'PAUSE', '200', 'WRITE');
    a.owners.claim(ALEX, '1:100');
    b.owners.claim(ALEX, '4:400');

    await until(async () => lost.length > 0);
    const owner = await record();
    const winner = owner?.server === a.owners.server ? 'a' : 'b';
    expect(owner?.shift).toBe(winner === 'a' ? '1:100' : '4:400');
    expect(lost).toEqual([winner === 'a' ? 'b' : 'a']);
  });

  it('what does not read under the owner key or on the channel is set aside with one line, never trusted', async () => {
    const a = await server();
    a.owners.claim(ALEX, '1:100');
    await until(async () => (await record())?.shift === '1:100');
    const all = firstValueFrom(heard(a.owners).pipe(take(1), toArray()));

    await redis.command('PUBLISH', `${PREFIX}duty-owner`, '{"chatId":"nope","server":7}');
    await redis.command('SET', `${PREFIX}duty-owner:${ALEX}`, '{"server":""}');
    expect(await a.owners.leftOpen(ALEX, '1:100')).toEqual({ kind: 'nobody' });
    expect(await a.owners.leftOpen(ALEX, '1:100')).toEqual({ kind: 'nobody' });
    const b = await server();
    b.owners.claim(ALEX, '4:400');
    expect(await all).toEqual([ALEX]);
    expect(a.lines.filter((line) => line.includes('set aside'))).toEqual([
      expect.stringMatching(/^WARN: Redis holds something under the duty-owner channel that does not read/),
      expect.stringMatching(new RegExp(`^WARN: Redis holds something under duty-owner:${ALEX} that does not read`)),
    ]);
  });

  it('another type under the owner key (another program’s) is set aside with one line and counts as no owner', async () => {
    const a = await server();
    const key = `${PREFIX}duty-owner:${ALEX}`;
    await redis.command('HSET', key, 'server', 'someone');

    expect(await a.owners.leftOpen(ALEX, '1:100')).toEqual({ kind: 'nobody' });
    await until(async () => Number(await redis.command('EXISTS', `${key}:set-aside`)) === 1);
    expect(a.lines.filter((line) => line.includes('set aside'))).toEqual([
      `WARN: Redis holds a hash under ${key}, not the string the bridge keeps there; it is set aside as ${key}:set-aside`,
    ]);
    a.owners.claim(ALEX, '1:200');
    await until(async () => (await record())?.shift === '1:200');
  });
});
