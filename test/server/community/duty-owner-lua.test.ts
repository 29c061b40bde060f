// The fence's scripts alone, against a real redis-server (issue 30): what a claim writes over and what it loses to,
// when a confirmation lets a call go, when the winner must send its `on` again, and how liveness picks the one server
// that ends a lapsed server's shifts. Fences are microseconds of Redis's clock, given here by hand.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIM_LUA,
  CONFIRM_LUA,
  ENDED_LUA,
  HOLD_LUA,
  TAKE_HELD_LUA,
} from '../../../server/community/duty-owner.lua.js';
import { LIVENESS_OF_LUA, RENEW_LUA, TAKEN_OVER_LUA } from '../../../server/community/server-liveness.lua.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

const CHAT = '284619375016482817';
const P = 'bridge:0000000000000000:';
const RECORD = `${P}duty-owner:${CHAT}`;
const OWNED = `${P}owned`;
const SERVERS = `${P}servers`;
const RUNS = `${P}server-runs`;
const TAKEOVERS = `${P}takeovers`;
const CHANNEL = `${P}duty-owner`;
const OVERLAP = 250_000;
/** 2026, in µs: a fence of 16 digits, more than cjson keeps of a number. */
const T = 1_795_000_000_000_000;
const S = 1_000_000;

describe.skipIf(!redisAvailable())('the duty owner scripts', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    return () => redis.stop();
  });
  afterEach(async () => {
    await redis.command('FLUSHALL');
  });

  const run = (lua: string, keys: string[], args: Array<string | number>) =>
    redis.command('EVAL', lua, String(keys.length), ...keys, ...args.map(String)) as Promise<unknown[]>;
  const claim = (server: string, shift: string, fence: number | '', sent: number | '', late = false, run_ = 'r') =>
    run(CLAIM_LUA, [RECORD, OWNED], [server, run_, shift, fence, sent, 1, CHANNEL, CHAT, OVERLAP, '', late ? 1 : 0]);
  const confirm = (
    server: string,
    shift: string,
    mode: 'end' | 'keep' | 'unclaimed',
    { fence = '' as number | '', confirmer = server, create = false, leaseMs = 10_000, former = '' } = {},
  ) =>
    run(
      CONFIRM_LUA,
      [RECORD, OWNED, SERVERS],
      [server, shift, fence, leaseMs, mode, confirmer, create ? 1 : 0, CHANNEL, CHAT, 1, 30_000, former],
    );
  const record = async () => {
    const raw = (await redis.command('GET', RECORD)) as string | null;
    return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
  };
  const owned = () => redis.command('ZRANGE', OWNED, '0', '-1');

  it('writes a claim with its fence exactly (16 digits), owned by its server, and announces it', async () => {
    expect(await claim('aaaa', '7:1', T + 123, T)).toEqual(['won', String(T + 123), -1, 0]);
    expect(await record()).toMatchObject({ server: 'aaaa', shift: '7:1', fence: String(T + 123), state: 'live' });
    expect(await owned()).toEqual([`aaaa:${CHAT}`]);
    // Claiming the same shift again (a retry whose first write had landed) is the same claim.
    expect(await claim('aaaa', '7:1', T + 123, T)).toEqual(['mine', String(T + 123), 0, 0]);
  });

  it('a later `on` wins; a claim written late with an earlier `on` loses, and asks nothing when the two are far apart', async () => {
    await claim('aaaa', '7:1', T, T - S);
    // B's `on` left 5 s after A's was taken: the panel has B's, no restate.
    expect(await claim('bbbb', '9:2', T + 6 * S, T + 5 * S)).toEqual(['won', String(T + 6 * S), -1, 0]);
    expect(await owned()).toEqual([`bbbb:${CHAT}`]);
    // A partition: C's `on` was taken before B's but its claim comes only now. It loses, and B is not asked to
    // restate: C's `on` was over before B's left.
    expect(await claim('cccc', '3:3', T + 2 * S, T + S, true)).toEqual(['lost', 'bbbb', '9:2', 'live', 0, 0]);
    expect(await record()).toMatchObject({ server: 'bbbb', restate: 0 });
  });

  it('two `on`s close together may have reached the panel either way: the winner restates, the loser asks it to', async () => {
    await claim('aaaa', '7:1', T + 100_000, T);
    // B's `on` left 50 ms after A's was taken: B wins and restates at once (nothing of A's is in flight). The record
    // counts that restate as its first ask, so a `won` answer that never reached B is read back as `mine`.
    expect(await claim('bbbb', '9:2', T + 200_000, T + 150_000)).toEqual(['won', String(T + 200_000), 0, 1]);
    expect(await claim('bbbb', '9:2', T + 200_000, T + 150_000)).toEqual(['mine', String(T + 200_000), 1, 0]);
    // A claim lost to an `on` that left within the overlap asks the winner to restate.
    expect(await claim('cccc', '3:3', T + 190_000, T + 50_000)).toEqual(['lost', 'bbbb', '9:2', 'live', 1, 0]);
    expect(await record()).toMatchObject({ server: 'bbbb', restate: 2 });
  });

  it('ties are broken by the server identity, then the shift, the same way everywhere', async () => {
    await claim('aaaa', '7:1', T, T - S);
    expect((await claim('bbbb', '9:2', T, T - S))[0]).toBe('won');
    expect((await claim('aaaa', '7:1', T, T - S))[0]).toBe('lost');
    expect((await claim('bbbb', '8:0', T, T - S))[0]).toBe('lost');
  });

  it('reads a record written before fences (issue 25) as fence 0', async () => {
    await redis.command('SET', RECORD, JSON.stringify({ server: 'aaaa', shift: '7:1' }));
    expect((await claim('bbbb', '9:2', T, T - S))[0]).toBe('won');
    await redis.command('SET', RECORD, JSON.stringify({ server: 'aaaa', shift: '7:1', ended: true }));
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['stale', 'aaaa', 'ended']);
  });

  it('confirms an `off` of the current claim (ending, quiet moved on), and not of a replaced one', async () => {
    await claim('aaaa', '7:1', T, T - S);
    expect(await confirm('aaaa', '7:1', 'end', { leaseMs: 12_000 })).toEqual(['go']);
    const ending = await record();
    expect(ending).toMatchObject({ state: 'ending', by: 'aaaa' });
    expect(Number(ending?.quiet)).toBeGreaterThan(Date.now() - 60_000);
    // Its next attempt is confirmed again; a peer's is not, while it is this server's off on its way.
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['go']);
    expect(await run(ENDED_LUA, [RECORD, OWNED], ['aaaa', '7:1', CHAT])).toBe(1);
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['stale', 'aaaa', 'ended']);

    await claim('bbbb', '9:2', T + 60 * S, T + 59 * S);
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['stale', 'bbbb', 'live']);
    // B's claim restates (A's confirmed off may reach the panel after B's `on`); a call that was not sent cannot
    // have reached the panel after B's, but whose claim was never seen might have: a second ask.
    expect(await record()).toMatchObject({ server: 'bbbb', restate: 2 });
  });

  it('a call of a claim written under the identity its server had before a fresh one is confirmed as that claim', async () => {
    // Seed 5000 of `npm run chaos`: a copy of A's folder took A's identity while A was cut off, so A took a fresh one
    // (here 0000, which sorts below aaaa). A's off of its own duty must not be taken for another server's.
    await claim('aaaa', '7:1', T, T - S);
    expect(await confirm('0000', '7:1', 'end', { fence: T, create: true, former: 'aaaa' })).toEqual(['go']);
    expect(await record()).toMatchObject({ server: '0000', shift: '7:1', state: 'ending', by: '0000', restate: 0 });
    // Indexed under the identity it goes by now, until its off is delivered (ENDED_LUA).
    expect(await owned()).toEqual([`0000:${CHAT}`]);
    // Another server's claim under that identity, of another shift, is not this one.
    await claim('aaaa', '9:9', T + S, T);
    expect(await confirm('0000', '7:1', 'end', { fence: T, create: true, former: 'aaaa' })).toEqual([
      'stale',
      'aaaa',
      'live',
    ]);
  });

  it('a record Redis lost is written again for the claim that asks (create), and an older one loses to it', async () => {
    expect(await confirm('aaaa', '7:1', 'end', { fence: T })).toEqual(['none']);
    expect(await confirm('aaaa', '7:1', 'end', { fence: T, create: true })).toEqual(['go']);
    expect(await record()).toMatchObject({ server: 'aaaa', shift: '7:1', fence: String(T), state: 'ending' });
    // A snapshot brought back C's older claim: A's later one is written over it.
    await redis.command('DEL', RECORD);
    await claim('cccc', '3:3', T - 60 * S, T - 61 * S);
    expect(await confirm('aaaa', '7:1', 'keep', { fence: T, create: true })).toEqual(['go']);
    expect(await record()).toMatchObject({ server: 'aaaa', state: 'live' });
    expect(await owned()).toEqual([`aaaa:${CHAT}`]);
  });

  it('an `off` a crashed run left, whose claim Redis never had, goes while only an ended claim of another shift is there', async () => {
    // Seed 9000 of `npm run chaos`: Redis was down (then restarted empty) while A went on and off duty and B went on
    // duty in another department and crashed before it could claim. A's `off` ended A's own shift. B, back, must
    // still end its shift at the panel: A's ended claim says nothing of B's.
    await claim('aaaa', '7:1', T, T - S);
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['go']);
    expect(await run(ENDED_LUA, [RECORD, OWNED], ['aaaa', '7:1', CHAT])).toBe(1);
    // Not before every server had time to write again what it holds (a live claim Redis lost may come back).
    expect(await confirm('bbbb', '9:2', 'end')).toEqual(['none']);
    expect(await confirm('bbbb', '9:2', 'end', { create: true })).toEqual(['go']);
    // A live claim of another server still stops it, and is asked to restate.
    await claim('cccc', '3:3', T + S, T);
    expect(await confirm('bbbb', '9:2', 'end', { create: true })).toEqual(['stale', 'cccc', 'live']);
    // Its own restate (it replaced A's confirmed off), and B's ask.
    expect(await record()).toMatchObject({ server: 'cccc', restate: 2 });
  });

  it('an `off` of an `on` never claimed goes only while no live claim exists', async () => {
    expect(await confirm('aaaa', '', 'unclaimed')).toEqual(['go']);
    expect(await record()).toMatchObject({ state: 'ended' });
    await claim('bbbb', '9:2', T, T - S);
    expect(await confirm('aaaa', '', 'unclaimed')).toEqual(['stale', 'bbbb', 'live']);
    expect(await confirm('bbbb', '9:2', 'end')).toEqual(['go']);
    expect(await confirm('aaaa', '', 'unclaimed')).toEqual(['go']);
  });

  // Issue 32 across a community: a shift held after its game crashed is taken over by the server where the account
  // joins, while it is held and its window is not over on Redis's clock.
  const hold = (server: string, shift: string, windowMs: number) =>
    run(HOLD_LUA, [RECORD], [server, shift, windowMs, 1_795_000_000_123, 4]);
  const takeHeld = (server: string, src: number) =>
    run(TAKE_HELD_LUA, [RECORD, OWNED], [server, 'r2', src, CHANNEL, CHAT]);

  it('a held shift is taken over by another server in its window, fenced above it; its holder then loses without asking a restate', async () => {
    await claim('aaaa', '7:1795000000123', T, T);
    expect(await takeHeld('bbbb', 3)).toEqual(['no']);
    expect(await hold('aaaa', '7:1795000000123', 60_000)).toBe(1);
    expect(await takeHeld('aaaa', 3)).toEqual(['no']);
    const took = await takeHeld('bbbb', 3);
    expect(took.slice(0, 6)).toEqual(['took', expect.any(String), '3:1795000000123', 1, 4, '1795000000123']);
    expect(took[6]).toBeGreaterThan(55_000);
    expect(Number(took[1])).toBeGreaterThan(T);
    expect(await record()).toMatchObject({ server: 'bbbb', shift: '3:1795000000123', state: 'live', restate: 0 });
    expect((await record())?.held).toBeUndefined();
    expect(await owned()).toEqual([`bbbb:${CHAT}`]);
    // Taken once: no other server takes it again, nor another session here. The same take run again (its answer
    // lost to a timeout) answers the same.
    expect(await takeHeld('cccc', 5)).toEqual(['no']);
    expect(await takeHeld('bbbb', 5)).toEqual(['no']);
    expect((await takeHeld('bbbb', 3)).slice(0, 6)).toEqual(took.slice(0, 6));
    // The holder's claim and its held shift's off are stale, and ask the taker for no restate (it sent no on).
    expect((await claim('aaaa', '7:1795000000123', T, T))[0]).toBe('lost');
    expect(await confirm('aaaa', '7:1795000000123', 'end')).toEqual(['stale', 'bbbb', 'live']);
    expect(await record()).toMatchObject({ restate: 0 });
  });

  it('a held shift whose window is over, or whose off is on its way, is not taken over', async () => {
    await claim('aaaa', '7:1795000000123', T, T);
    await hold('aaaa', '7:1795000000123', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await takeHeld('bbbb', 3)).toEqual(['no']);
    await hold('aaaa', '7:1795000000123', 60_000);
    expect(await confirm('aaaa', '7:1795000000123', 'end')).toEqual(['go']);
    expect(await takeHeld('bbbb', 3)).toEqual(['no']);
    expect(await record()).toMatchObject({ server: 'aaaa', state: 'ending' });
  });

  it('a peer ends a lapsed server’s claim only while that server is still lapsed', async () => {
    await claim('aaaa', '7:1', T, T - S);
    const now = Math.floor(Date.now());
    await redis.command('ZADD', SERVERS, String(now), 'aaaa');
    expect(await confirm('aaaa', '7:1', 'end', { confirmer: 'bbbb' })).toEqual(['stale', 'aaaa', 'alive']);
    await redis.command('ZADD', SERVERS, String(now - 60_000), 'aaaa');
    expect(await confirm('aaaa', '7:1', 'end', { confirmer: 'bbbb' })).toEqual(['go']);
    expect(await record()).toMatchObject({ state: 'ending', by: 'bbbb' });
    // The lapsed server, back, finds its duty being ended by the peer: it sends nothing.
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['stale', 'bbbb', 'ended']);
    // Alive but cut off: its claim, claimed again, becomes a new one, restated once the peer's off is over.
    const again = await claim('aaaa', '7:1', T, T - S);
    expect(again[0]).toBe('won');
    expect(Number(again[1])).toBeGreaterThan(T);
    expect(again[2]).toBeGreaterThan(0);
    expect(await record()).toMatchObject({ server: 'aaaa', state: 'live' });
    expect(await confirm('aaaa', '7:1', 'keep')).toEqual(['go']);
  });

  it('a peer takes over the off of a lapsed server that died with it on its way; back, that server sends nothing', async () => {
    await claim('aaaa', '7:1', T, T - S);
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['go']);
    await redis.command('ZADD', SERVERS, String(Date.now() - 60_000), 'aaaa');
    expect(await confirm('aaaa', '7:1', 'end', { confirmer: 'bbbb' })).toEqual(['go']);
    expect(await record()).toMatchObject({ state: 'ending', by: 'bbbb' });
    expect(await confirm('aaaa', '7:1', 'end')).toEqual(['stale', 'bbbb', 'ended']);
    expect(await confirm('aaaa', '7:1', 'end', { confirmer: 'cccc' })).toEqual(['stale', 'bbbb', 'ended']);
  });

  describe('liveness', () => {
    const renew = (server: string, runId: string, { allowRun = '', allowScore = '', sweep = false } = {}) =>
      run(RENEW_LUA, [SERVERS, RUNS, OWNED, TAKEOVERS], [server, runId, 3_000, allowRun, allowScore, sweep ? 1 : 0]);

    it('another run still renewing the identity is another live server; a run that stopped renewing is not', async () => {
      expect((await renew('aaaa', 'run1'))[0]).toBe('ok');
      expect(await renew('aaaa', 'run2')).toEqual(['conflict', 'run1']);
      const [run1, score] = (await run(LIVENESS_OF_LUA, [SERVERS, RUNS, OWNED, TAKEOVERS], ['aaaa'])) as [
        string,
        string,
      ];
      expect(run1).toBe('run1');
      // run2 saw run1's renewal at `score` and waited: not renewed since, so it was run2's own dead last run.
      expect((await renew('aaaa', 'run2', { allowRun: 'run1', allowScore: score }))[0]).toBe('ok');
      expect(await renew('aaaa', 'run1')).toEqual(['conflict', 'run2']);
    });

    /** The takeovers a renewal's answer lists. */
    const listed = (answer: unknown[]) =>
      answer
        .slice(3)
        .map(
          (raw) => JSON.parse(String(raw)) as { server: string; at: string; silentForMs: number; chatIds: string[] },
        );
    const lapse = async (server: string, agoMs: number, chatIds: string[]) => {
      await redis.command('ZADD', SERVERS, String(Date.now() - agoMs), server);
      await redis.command('HSET', RUNS, server, server);
      for (const chatId of chatIds) await redis.command('ZADD', OWNED, '0', `${server}:${chatId}`);
    };

    it('exactly one renewal takes a lapsed server out, with the accounts it owned', async () => {
      await renew('bbbb', 'b');
      await renew('cccc', 'c');
      await lapse('aaaa', 10_000, [CHAT, '1039284756102938475']);
      await redis.command('ZADD', OWNED, '0', `bbbb:${CHAT}`);
      const [first, second] = await Promise.all([
        renew('bbbb', 'b', { sweep: true }),
        renew('cccc', 'c', { sweep: true }),
      ]);
      const takers = [first, second].filter((answer) => listed(answer).some(({ server }) => server === 'aaaa'));
      expect(takers).toHaveLength(1);
      const [takeover] = listed(takers[0] as unknown[]);
      expect(takeover?.chatIds.sort()).toEqual(['1039284756102938475', CHAT].sort());
      // Read from the renewal score the test planted 10 s back, not timed.
      expect(takeover?.silentForMs).toBeGreaterThanOrEqual(10_000);
      expect(await owned()).toEqual([`bbbb:${CHAT}`]);
      expect(await redis.command('HGET', RUNS, 'aaaa')).toBeNull();
      // Renewing again after being taken out says so: what this server held is settled again.
      expect((await renew('aaaa', 'a'))[2]).toBe(1);
      expect((await renew('aaaa', 'a'))[2]).toBe(0);
    });

    it('a takeover is listed by every renewal of its taker until the taker says it is done, then by none', async () => {
      await renew('bbbb', 'b');
      await lapse('aaaa', 10_000, [CHAT]);
      const [first] = listed(await renew('bbbb', 'b', { sweep: true }));
      expect(first).toMatchObject({ server: 'aaaa', chatIds: [CHAT] });
      // That answer may have been lost (a timeout): the next renewal lists it again; another server's lists nothing.
      expect(listed(await renew('bbbb', 'b', { sweep: true }))).toEqual([first]);
      expect(listed(await renew('cccc', 'c', { sweep: true }))).toEqual([]);
      // Only its taker, for this very lapse, says it is done.
      expect(await run(TAKEN_OVER_LUA, [TAKEOVERS], ['cccc', 'aaaa', first?.at as string])).toBe(0);
      expect(await run(TAKEN_OVER_LUA, [TAKEOVERS], ['bbbb', 'aaaa', '1'])).toBe(0);
      expect(await run(TAKEN_OVER_LUA, [TAKEOVERS], ['bbbb', 'aaaa', first?.at as string])).toBe(1);
      expect(listed(await renew('bbbb', 'b', { sweep: true }))).toEqual([]);
    });

    it('a taker that lapses before it is done passes its takeover on, with its own accounts', async () => {
      await renew('cccc', 'c');
      await lapse('aaaa', 10_000, [CHAT]);
      await renew('bbbb', 'b');
      expect(listed(await renew('bbbb', 'b', { sweep: true }))).toMatchObject([{ server: 'aaaa' }]);
      // B dies with A's takeover unfinished: whoever takes B out finishes both.
      await lapse('bbbb', 10_000, ['1039284756102938475']);
      const takeovers = listed(await renew('cccc', 'c', { sweep: true }));
      expect(takeovers.map(({ server, chatIds }) => [server, chatIds]).sort()).toEqual([
        ['aaaa', [CHAT]],
        ['bbbb', ['1039284756102938475']],
      ]);
    });

    it('a lapsed server with nothing owned is taken out as an empty takeover (an empty list, not an object)', async () => {
      await renew('bbbb', 'b');
      await lapse('aaaa', 10_000, []);
      expect(listed(await renew('bbbb', 'b', { sweep: true }))).toMatchObject([{ server: 'aaaa', chatIds: [] }]);
    });
  });
});
