// The community's duty owners against a real redis-server (issue 25 item 3, fenced since issue 30): each server's
// identity and liveness, its claims and what it hears of the others', the confirmation of its fenced calls, the
// lapsed servers it takes over, and what is set aside when our keys hold something else.
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { communityPrefix } from '../../../server/community/communities.js';
import type { DutyOwners, LapsedServer, TakenElsewhere } from '../../../server/community/community.js';
import { TAKE_HELD_LUA } from '../../../server/community/duty-owner.lua.js';
import { OWNERS_REWRITTEN_WITHIN_MS, startDutyOwners } from '../../../server/community/duty-owners.js';
import { sharedReader } from '../../../server/community/read-shared.js';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import { createLogger } from '../../../server/kernel/log.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import { startTcpProxy } from '../../../sim/community/tcp-proxy.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

const ALEX = '284619375016482817';
const CASEY = '562018374659201837';
const PREFIX = communityPrefix('http://panel.test');
const LIVENESS_MS = 1_200;
const LEASE_MS = 12_000;

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

  let runs = 0;
  /** One server of the community: its own link, KVP and log, a run of its own (or the run given). */
  async function server(
    store = createMemoryStore(),
    run = { id: `run${++runs}`, previous: undefined as string | undefined },
    url = redis.url(),
  ) {
    const lines: string[] = [];
    const logger = createLogger({ print: (line) => lines.push(line) });
    const parsed = parseRedisUrl(url);
    if (!parsed.ok) throw new Error(parsed.error);
    const link = openRedisLink({ target: parsed.target, panel: 'http://panel.test', logger });
    const owners = startDutyOwners({
      ...{ link, readShared: sharedReader(logger), store, logger, run, livenessMs: LIVENESS_MS },
      now: () => performance.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    closing.push(() => {
      owners.stop();
      link.close();
    });
    await firstValueFrom(link.up$.pipe(filter((up) => up)));
    const taken: TakenElsewhere[] = [];
    const restates: string[] = [];
    const lapsed: LapsedServer[] = [];
    owners.takenElsewhere$.subscribe((event) => taken.push(event));
    owners.restate$.subscribe(({ shift }) => restates.push(shift));
    owners.lapsed$.subscribe((event) => lapsed.push(event));
    const identity = () =>
      /this server is ([0-9a-f]{16}) in the community$/.exec(
        lines
          .join('\n')
          .split('\n')
          .reverse()
          .find((line) => /is [0-9a-f]{16} in the community$/.test(line)) ?? '',
      )?.[1];
    return { owners, lines, store, link, taken, restates, lapsed, identity };
  }

  /** A server whose link to Redis goes through a proxy the test can cut (a black hole, a reset). */
  async function serverBehindProxy() {
    const proxy = await startTcpProxy(redis.port);
    closing.push(() => void proxy.close());
    return { proxy, ...(await server(undefined, undefined, `redis://127.0.0.1:${proxy.port}/0`)) };
  }

  const record = async (chatId = ALEX) => {
    const raw = (await redis.command('GET', `${PREFIX}duty-owner:${chatId}`)) as string | null;
    return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
  };
  /** Polls until `check` holds, at most 10 s (a reconnection takes ioredis's backoff, a settle a renewal). */
  const until = async (check: () => boolean | Promise<boolean>) => {
    for (let tries = 0; tries < 1_000; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('never came');
  };
  const off = (owners: DutyOwners, shift: string, fromLastRun = false, server?: string) =>
    owners.confirm({
      chatId: ALEX,
      action: 'off',
      fence: server ? { shift, server } : { shift },
      departmentId: 1,
      fromLastRun,
      leaseMs: LEASE_MS,
    });

  it('keeps a stable identity in KVP across runs, says it once it is settled, and replaces a damaged one', async () => {
    const store = createMemoryStore();
    const first = await server(store, { id: 'one', previous: undefined });
    await until(() => first.identity() !== undefined);
    first.owners.stop();
    // The next run knows this one as its last (startCommunityRun keeps it in KVP): a stop, then a start.
    const again = await server(store, { id: 'two', previous: 'one' });
    await until(() => again.identity() !== undefined);
    expect(again.identity()).toBe(first.identity());

    store.set('community:server', 'not-an-id');
    const damaged = await server(store);
    await until(() => damaged.identity() !== undefined);
    expect(damaged.identity()).not.toBe(first.identity());
    expect(damaged.lines.filter((line) => line.includes('community:server'))).toEqual([
      expect.stringMatching(/^WARN: community:server in KVP is not a server identity/),
    ]);
  });

  it('a copied KVP (the same identity, its last run still renewed by another server) takes a fresh identity and leaves the calls it found to that server', async () => {
    const original = await server();
    await until(() => original.identity() !== undefined);
    original.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    // The copy's KVP holds the original's identity, and the original's run as its own last run.
    const copied = createMemoryStore();
    copied.set('community:server', original.store.get('community:server') as string);
    const copy = await server(copied, { id: 'copy-run', previous: `run${runs}` });
    await until(() => copy.identity() !== undefined);

    expect(copy.identity()).not.toBe(original.identity());
    expect(copy.lines.filter((line) => line.startsWith('WARN'))).toEqual([
      expect.stringMatching(
        /most likely copied from that server's.*this server is [0-9a-f]{16} in the community from now on/,
      ),
    ]);
    expect(copied.get('community:server')).toBe(copy.identity());
    // The original's kept off, found in the copy's KVP, is not the copy's to send.
    expect(await off(copy.owners, '1:100', true)).toEqual({ kind: 'stale', why: expect.stringMatching(/live server/) });
    expect(await record()).toMatchObject({ server: original.identity(), state: 'live' });
  });

  it('a server restarted after a crash finds its last run not renewed any more and keeps its identity', async () => {
    const store = createMemoryStore();
    const crashed = await server(store, { id: 'before', previous: undefined });
    await until(() => crashed.identity() !== undefined);
    crashed.owners.stop();
    const back = await server(store, { id: 'after', previous: 'before' });
    await until(() => back.identity() !== undefined);
    expect(back.identity()).toBe(crashed.identity());
    expect(back.lines.filter((line) => line.startsWith('WARN'))).toEqual([]);
  });

  it('a claim names the server, the shift and the fence; its off is confirmed once, then it is ended', async () => {
    const a = await server();
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    await until(() => a.identity() !== undefined);
    expect(await record()).toMatchObject({ server: a.identity(), shift: '1:100', dept: 1, state: 'live' });
    expect(Number((await record())?.fence)).toBeGreaterThan(1_700_000_000_000_000);

    a.owners.release(ALEX, '1:100');
    expect(await off(a.owners, '1:100')).toEqual({ kind: 'go' });
    a.owners.delivered({
      chatId: ALEX,
      action: 'off',
      fence: { shift: '1:100' },
      departmentId: 1,
      fromLastRun: false,
      leaseMs: LEASE_MS,
    });
    await until(async () => (await record())?.state === 'ended');
    expect(Number(await redis.command('TTL', `${PREFIX}duty-owner:${ALEX}`))).toBeGreaterThan(0);
  });

  it('confirms each `on` of a live claim (a new rank, a restate), and its `off` after them', async () => {
    const a = await server();
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    const onOf = {
      chatId: ALEX,
      action: 'on' as const,
      fence: { shift: '1:100' },
      departmentId: 1,
      fromLastRun: false,
    };
    for (let rank = 0; rank < 2; rank++) {
      expect(await a.owners.confirm({ ...onOf, leaseMs: LEASE_MS })).toEqual({ kind: 'go' });
      a.owners.delivered({ ...onOf, leaseMs: LEASE_MS });
    }
    a.owners.release(ALEX, '1:100');
    expect(await off(a.owners, '1:100')).toEqual({ kind: 'go' });
  });

  it('tells a server holding an account that another server’s later claim took it (replaced), not the one that took it', async () => {
    const a = await server();
    const b = await server();
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    await new Promise((resolve) => setTimeout(resolve, 300));
    b.owners.claim(ALEX, '4:400', 1);
    await until(() => a.taken.length > 0);
    expect(a.taken).toEqual([{ chatId: ALEX, shift: '1:100', reason: 'replaced', panelOff: false }]);
    expect(b.taken).toEqual([]);
    // A's off for its replaced shift is not sent.
    expect(await off(a.owners, '1:100')).toEqual({
      kind: 'stale',
      why: expect.stringMatching(/holds the account now/),
    });
  });

  it('two `on`s within the overlap, both written: the later server restates its `on` once, however many ask it', async () => {
    const a = await server();
    const b = await server();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    // B's claim replaces A's close one and asks for a restate; A, reading B's claim back, loses and asks for one too.
    b.owners.claim(ALEX, '4:400', 1);
    await until(() => a.taken.length > 0);
    await until(() => b.restates.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(b.restates).toEqual(['4:400']);
    expect(b.owners.settling()).toMatchObject({ restates: 0 });
  });

  it('two claims in flight at once while Redis holds writes: the later `on` wins, the other hears it lost', async () => {
    const a = await server();
    const b = await server();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    await redis.pause(700, 'WRITE');
    a.owners.claim(ALEX, '1:100', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    b.owners.claim(ALEX, '4:400', 1);
    await until(() => a.taken.length + b.taken.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await record()).toMatchObject({ server: b.identity(), shift: '4:400' });
    expect(a.taken.map(({ shift }) => shift)).toEqual(['1:100']);
    expect(b.taken).toEqual([]);
    // Their `on`s were 20 ms apart and may have reached the panel either way: B sends its own again, and says so
    // until it has.
    await until(() => b.owners.settling().restates === 1 || b.restates.length > 0);
    await until(() => b.restates.length > 0);
    expect(b.restates).toEqual(['4:400']);
    expect(b.owners.settling()).toMatchObject({ claims: 0, restates: 0 });
  });

  it('a confirmation rejects while Redis does not answer, and a claim made meanwhile is written once it does', async () => {
    const a = await server();
    await until(() => a.identity() !== undefined);
    await redis.kill();
    await until(() => !a.link.isUp);
    a.owners.claim(ALEX, '1:100', 1);
    await expect(off(a.owners, '1:100')).rejects.toThrow(/does not answer/);
    expect(a.owners.settling()).toMatchObject({ claims: 1 });
    await redis.restart();
    await until(async () => (await record().catch(() => null))?.shift === '1:100');
    expect(await off(a.owners, '1:100')).toEqual({ kind: 'go' });
    // Written; every claim it holds is read back once the others had time to write again what they hold.
    await until(() => a.owners.settling().claims === 0);
    expect(a.owners.settling()).toEqual({
      claims: 0,
      restates: 0,
      nextRestateInMs: undefined,
      checkAgainInMs: expect.any(Number),
      takeovers: 0,
    });
    expect(a.owners.settling().checkAgainInMs).toBeLessThanOrEqual(OWNERS_REWRITTEN_WITHIN_MS);
  });

  it('a server that stops renewing is taken out by one other server, with its duties to end at the panel', async () => {
    const a = await server();
    const b = await server();
    const c = await server();
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    await until(() => a.identity() !== undefined);
    a.owners.stop();
    await until(() => b.lapsed.length + c.lapsed.length > 0);
    await new Promise((resolve) => setTimeout(resolve, LIVENESS_MS));
    const taken = [...b.lapsed, ...c.lapsed];
    expect(taken).toEqual([
      {
        server: a.identity(),
        silentForMs: expect.any(Number),
        duties: [{ chatId: ALEX, shift: '1:100', departmentId: 1 }],
      },
    ]);
    const peer = b.lapsed.length > 0 ? b : c;
    expect(await off(peer.owners, '1:100', false, a.identity())).toEqual({ kind: 'go' });
    expect(peer.lines.filter((line) => line.includes('stopped renewing'))).toEqual([
      expect.stringMatching(
        /^INFO: server [0-9a-f]{16} stopped renewing its liveness \d+ s ago .*ends its 1 duty\(ies\)/,
      ),
    ]);
  });

  it('a takeover whose answer was lost (writes paused: the renewal timed out, and ran once they resumed) is still ended', async () => {
    // Seed 4000 of `npm run chaos`: A crashed with a claimed duty while Redis held every write for 1.5 s.
    const a = await server();
    const b = await server();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    a.owners.stop();
    await redis.pause(LIVENESS_MS + 600, 'WRITE');
    await until(() => b.lapsed.length > 0);
    expect(b.lapsed).toEqual([
      {
        server: a.identity(),
        silentForMs: expect.any(Number),
        duties: [{ chatId: ALEX, shift: '1:100', departmentId: 1 }],
      },
    ]);
    // Taken over once, however many renewals answer while it is being ended.
    await new Promise((resolve) => setTimeout(resolve, LIVENESS_MS));
    expect(b.lapsed).toHaveLength(1);
  });

  it('an on a server announced and died with before claiming it is taken over unclaimed, and ended only while that server is gone and nobody claimed the account', async () => {
    const a = await server();
    const b = await server();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    await a.owners.intend(ALEX, 1);
    a.owners.stop();
    await until(() => b.lapsed.length > 0);
    expect(b.lapsed).toEqual([
      {
        server: a.identity(),
        silentForMs: expect.any(Number),
        duties: [{ chatId: ALEX, shift: undefined, departmentId: 1 }],
      },
    ]);
    const unclaimedOff = () =>
      b.owners.confirm({
        chatId: ALEX,
        action: 'off',
        fence: { unclaimed: true, server: a.identity() as string },
        departmentId: 1,
        fromLastRun: false,
        leaseMs: LEASE_MS,
      });
    expect(await unclaimedOff()).toEqual({ kind: 'go' });
    // A claim of the account since: the unclaimed off is stale.
    b.owners.claim(ALEX, '2:200', 1);
    await until(async () => (await record())?.state === 'live');
    expect(await unclaimedOff()).toMatchObject({ kind: 'stale' });
  });

  it('an on sent as the server starts, before its identity is settled, is announced once it is', async () => {
    const a = await server();
    expect(a.identity()).toBeUndefined();
    await a.owners.intend(ALEX, 1);
    const intent = (await redis.command('GET', `${PREFIX}duty-on:${ALEX}`)) as string | null;
    expect(JSON.parse(intent ?? 'null')).toMatchObject({ server: a.identity(), dept: 1 });
  });

  it('an on announced before another server claimed the account: its peer off is not sent while that claim is live, and that server sends its own on again', async () => {
    const a = await server();
    const b = await server();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    await a.owners.intend(ALEX, 1);
    b.owners.claim(ALEX, '2:200', 1);
    await until(async () => (await record())?.state === 'live');
    a.owners.stop();
    await until(() => b.lapsed.length > 0);
    expect(b.lapsed[0]?.duties).toEqual([{ chatId: ALEX, shift: undefined, departmentId: 1 }]);
    const answer = await b.owners.confirm({
      chatId: ALEX,
      action: 'off',
      fence: { unclaimed: true, server: a.identity() as string },
      departmentId: 1,
      fromLastRun: false,
      leaseMs: LEASE_MS,
    });
    expect(answer).toMatchObject({ kind: 'stale' });
    // A's on may have reached the panel after B's: B restates its own.
    await until(() => b.restates.length > 0);
    expect(b.restates).toEqual(['2:200']);
  });

  it('a claim whose `won` answer was lost (its link black-holed, the command run once healed) still restates the `on` a peer ended meanwhile', async () => {
    // Seed 3002 of `npm run chaos`: A's link drops everything (nothing resets), right after the panel took its `on`.
    const { proxy, ...a } = await serverBehindProxy();
    const b = await server();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    // Another server's claim has put the claim script in Redis's cache: A's held EVALSHA runs as soon as it arrives.
    b.owners.claim(CASEY, '2:200', 1);
    await until(async () => (await record(CASEY))?.shift === '2:200');
    await a.owners.intend(ALEX, 1);
    a.owners.sending(ALEX);
    proxy.cutLink('blackhole');
    a.owners.claim(ALEX, '1:100', 1);
    // B takes A for gone and ends its `on`, which it finds unclaimed.
    await until(() => b.lapsed.length > 0);
    expect(b.lapsed[0]?.duties).toEqual([{ chatId: ALEX, shift: undefined, departmentId: 1 }]);
    expect(
      await b.owners.confirm({
        chatId: ALEX,
        action: 'off',
        fence: { unclaimed: true, server: a.identity() as string },
        departmentId: 1,
        fromLastRun: false,
        leaseMs: 500,
      }),
    ).toEqual({ kind: 'go' });
    // A's attempts timed out, but Redis runs every one once the link heals: the first wins, the others read `mine`.
    proxy.heal();
    await until(async () => (await record())?.server === a.identity());
    await until(() => a.restates.length > 0);
    expect(a.restates).toEqual(['1:100']);
    expect(a.owners.settling()).toMatchObject({ claims: 0, restates: 0 });
  });

  it('a take of a held shift whose `took` answer was lost (its link black-holed, the command run once healed) is taken all the same', async () => {
    const a = await server();
    const { proxy, ...b } = await serverBehindProxy();
    await until(() => a.identity() !== undefined && b.identity() !== undefined);
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    a.owners.hold(ALEX, '1:100', { windowMs: 60_000, since: 100, rankId: 4 });
    await until(async () => (await record())?.held !== undefined);
    // As after another server's take: Redis has the script cached, so B's held EVALSHA runs as soon as it arrives.
    await redis.command('SCRIPT', 'LOAD', TAKE_HELD_LUA);
    proxy.cutLink('blackhole');
    const taking = b.owners.takeHeld(ALEX, 7);
    await new Promise((resolve) => setTimeout(resolve, 700));
    proxy.heal();
    expect(await taking).toEqual({ departmentId: 1, rankId: 4, since: 100, leftMs: expect.any(Number) });
    expect(await record()).toMatchObject({ server: b.identity(), shift: '7:100', state: 'live' });
    // B holds it: its `off` goes under its own claim.
    expect(await off(b.owners, '7:100')).toEqual({ kind: 'go' });
    await until(() => a.taken.length > 0);
    expect(a.taken).toEqual([{ chatId: ALEX, shift: '1:100', reason: 'replaced', panelOff: false }]);
  });

  it('what does not read under the owner key or on the channel is set aside with one line, never trusted', async () => {
    const a = await server();
    a.owners.claim(ALEX, '1:100', 1);
    await until(async () => (await record())?.shift === '1:100');
    await redis.command('PUBLISH', `${PREFIX}duty-owner`, '{"chatId":"nope","server":7}');
    const b = await server();
    await redis.command('SET', `${PREFIX}duty-owner:${ALEX}`, '{"server":""}');
    // A record that does not read is no claim: B's claim is written over it.
    b.owners.claim(ALEX, '4:400', 1);
    await until(async () => (await record())?.shift === '4:400');
    await until(() => a.lines.some((line) => line.includes('duty-owner channel')));
    expect(a.lines.filter((line) => line.includes('set aside'))).toEqual([
      expect.stringMatching(/^WARN: Redis holds something under the duty-owner channel that does not read/),
    ]);
  });

  it('a takeover that does not read is set aside with one line, and never taken over', async () => {
    const b = await server();
    await until(() => b.identity() !== undefined);
    const bad = JSON.stringify({ by: b.identity(), at: '1', silentForMs: 5, chatIds: ['not a chat id'] });
    await redis.command('HSET', `${PREFIX}takeovers`, 'zzzz', bad);
    await until(() => b.lines.some((line) => line.includes('under takeovers')));
    expect(b.lines.filter((line) => line.includes('set aside'))).toEqual([
      expect.stringMatching(/^WARN: Redis holds something under takeovers that does not read/),
    ]);
    expect(b.lapsed).toEqual([]);
  });

  it('another type under the owner key (another program’s) is set aside with one line and counts as no owner', async () => {
    const a = await server();
    const key = `${PREFIX}duty-owner:${ALEX}`;
    await redis.command('HSET', key, 'server', 'someone');
    a.owners.claim(ALEX, '1:200', 1);
    await until(async () => Number(await redis.command('EXISTS', `${key}:set-aside`)) === 1);
    await until(async () => (await redis.command('TYPE', key)) === 'string' && (await record())?.shift === '1:200');
    expect(a.lines.filter((line) => line.includes('set aside'))).toEqual([
      `WARN: Redis holds a hash under ${key}, not the string the bridge keeps there; it is set aside as ${key}:set-aside`,
    ]);
  });
});
