// Duty belongs to the chat account across the community (issue 25 item 3): two simulated servers, one mock panel,
// one real Redis. The panel's duty book is the witness: each shift is one `on` and one `off` there, whatever crashes,
// in whatever order, and a server never ends a duty another server has taken since.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sim, SimPlayer } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { changeDuty } from './support/bridge-exports.js';
import { type Community, startCommunity } from './support/community.js';

let community: Community | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

const JAMIE = ONE_DEPARTMENT;

function world(): Community {
  if (!community) throw new Error('no community');
  return community;
}

const linesOf = (sim: Sim, pattern: RegExp): string[] =>
  sim.console.map((line) => line.text).filter((text) => pattern.test(text));

async function inCommunity(sim: Sim): Promise<void> {
  await sim.until(() => linesOf(sim, /one of a community on Redis/).length > 0, 10_000, 'Redis');
}

async function joined(sim: Sim, chat = JAMIE): Promise<SimPlayer> {
  const player = await world().join(sim, chat, 'Jamie Rivera');
  await sim.until(() => world().hasProfile(sim, player), 10_000, 'the profile');
  return player;
}

async function onDuty(sim: Sim, player: SimPlayer): Promise<void> {
  expect(await changeDuty(sim, player, true)).toMatchObject({ ok: true, onDuty: true });
}

async function offDuty(sim: Sim, player: SimPlayer): Promise<void> {
  expect(await changeDuty(sim, player, false)).toMatchObject({ ok: true, onDuty: false });
}

const sessions = () => world().panel.controls.sessions(JAMIE);

async function sessionsSettle(sim: Sim, until: () => boolean, what: string): Promise<void> {
  await sim.until(until, 20_000, what);
  await sim.settle();
}

describe.skipIf(!redisAvailable())('duty across the community (two servers, one panel, one Redis)', () => {
  it('a crashed server ends only the duties it still owns: the duty the player took on another server since stays open', async () => {
    redis = await startRedisServer();
    community = await startCommunity({ servers: 2, redisUrl: redis.url() });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);

    await onDuty(a, await joined(a));
    // Server A dies without its stop; the player comes back on server B and goes on duty there.
    await a.kill();
    const onB = await joined(b);
    await onDuty(b, onB);
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);

    await a.restart();
    await sessionsSettle(
      a,
      () => linesOf(a, /left alone/).length > 0 || sessions().some((session) => session.endedAt !== null),
      'the crash recovery',
    );
    // B's duty is still open at the panel: A's recovery sent no `off`.
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);
    expect(linesOf(a, /left open was taken/)).toEqual([
      expect.stringMatching(
        /^INFO: the duty of chat account \d+ the last run left open was taken by server [0-9a-f]+ since; it is left alone/,
      ),
    ]);

    await offDuty(b, onB);
    await sessionsSettle(b, () => sessions().every((session) => session.endedAt !== null), 'the off');
    // One shift at the panel, ended by B's off; A's recovery sent nothing more.
    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 60_000);
});
