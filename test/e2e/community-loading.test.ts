// dist/redis.cjs is the community's part of the bridge: dist/server.js loads it with FXServer's `require` only when
// BRIDGE_REDIS_URL is set (server/kernel/optional-module.ts cites how FXServer resolves it), and
// nothing about Redis can stop a server from serving its own players.
import { afterEach, describe, expect, it } from 'vitest';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';

const PASSWORD = 'Hx4tQ9mVr2KpZ7';
let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

async function profileArrives(world: SimCommunity): Promise<void> {
  const [sim] = world.sims;
  if (!sim) throw new Error('no server');
  const player = await world.join(sim, '284619375016482817', 'Alex Mercer');
  await sim.until(() => world.hasProfile(sim, player), 10_000, 'the profile');
}

describe('without BRIDGE_REDIS_URL', () => {
  it('dist/redis.cjs is never loaded: an install without it starts and serves its players, saying nothing of Redis', async () => {
    community = await startSimCommunity({ servers: 1, without: ['redis.cjs', 'redis.cjs.map'] });
    await profileArrives(community);
    const [sim] = community.sims;
    expect(sim?.errors).toEqual([]);
    expect(community.consoleOf(sim as never)).not.toMatch(/redis/i);
  });
});

describe('a BRIDGE_REDIS_URL whose password is not percent-encoded', () => {
  it('a base64 password with / and +: one ERROR with the shape to set, the password in no line, players served', async () => {
    const password = 'q7/Kd2+Wm9xZ3fT1vB==';
    community = await startSimCommunity({
      servers: 1,
      convarsOf: () => ({ BRIDGE_REDIS_URL: `redis://:${password}@127.0.0.1:6379/0` }),
    });
    await profileArrives(community);
    const text = community.consoleOf(community.sims[0] as never);
    expect(text.split('\n').filter((line) => line.startsWith('ERROR'))).toEqual([
      expect.stringContaining(
        'ERROR: BRIDGE_REDIS_URL "redis://***@127.0.0.1:6379/0" does not read: its password holds /, ?, #, a space or a % that starts no escape. Percent-encode the password (/ as %2F,',
      ),
    ]);
    expect(text).toContain('set BRIDGE_REDIS_URL "redis://:<password, percent-encoded>@127.0.0.1:6379/0"');
    for (const piece of [password, 'q7/Kd2', 'Wm9xZ3fT1vB', encodeURIComponent(password)])
      expect(text).not.toContain(piece);
  });
});

describe.skipIf(!redisAvailable())('with BRIDGE_REDIS_URL', () => {
  it('dist/server.js loads dist/redis.cjs the way FXServer resolves require, and joins the community', async () => {
    redis = await startRedisServer({ password: PASSWORD });
    community = await startSimCommunity({ servers: 1, redisUrl: redis.url() });
    const [sim] = community.sims;
    await community.untilOnRedis();
    await profileArrives(community);
    const text = community.consoleOf(sim as never);
    expect(text).toContain(`one of a community on Redis at redis://***@127.0.0.1:${redis.port}/0 (BRIDGE_REDIS_URL`);
    expect(text).not.toContain(PASSWORD);
    expect(sim?.errors).toEqual([]);
  });

  it('with dist/redis.cjs missing from the install: one ERROR naming BRIDGE_REDIS_URL, and the server serves alone', async () => {
    redis = await startRedisServer();
    community = await startSimCommunity({ servers: 1, redisUrl: redis.url(), without: ['redis.cjs', 'redis.cjs.map'] });
    await profileArrives(community);
    const errors = community
      .consoleOf(community.sims[0] as never)
      .split('\n')
      .filter((line) => line.includes('ERROR'));
    expect(errors).toEqual([
      expect.stringMatching(
        /BRIDGE_REDIS_URL is set but \.\/dist\/redis\.cjs could not be loaded .*This server runs alone/,
      ),
    ]);
  });

  it('unreachable at start, or a URL that does not read: one line naming BRIDGE_REDIS_URL, the password masked, players served', async () => {
    community = await startSimCommunity({
      servers: 2,
      convarsOf: (index) => ({
        BRIDGE_REDIS_URL: index === 0 ? `redis://:${PASSWORD}@127.0.0.1:1/0` : `http://:${PASSWORD}@127.0.0.1:6379`,
      }),
    });
    const [unreachable, unreadable] = community.sims as [never, never];
    await community.sims[0]?.until(
      () => community?.consoleOf(unreachable).includes('does not answer') ?? false,
      10_000,
      'the warning',
    );
    await profileArrives(community);
    expect(
      community
        .consoleOf(unreachable)
        .split('\n')
        .filter((line) => /redis/i.test(line)),
    ).toEqual([
      expect.stringMatching(/^WARN: Redis at redis:\/\/\*\*\*@127\.0\.0\.1:1\/0 \(BRIDGE_REDIS_URL\) does not answer/),
    ]);
    expect(
      community
        .consoleOf(unreadable)
        .split('\n')
        .filter((line) => /redis/i.test(line)),
    ).toEqual([
      expect.stringMatching(
        /^ERROR: BRIDGE_REDIS_URL must start with redis:\/\/ or rediss:\/\/, not http:\/\/\..*runs alone/,
      ),
    ]);
    for (const sim of community.sims) expect(community.consoleOf(sim)).not.toContain(PASSWORD);
  });
});
