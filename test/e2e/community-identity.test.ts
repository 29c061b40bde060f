// One community, one name: each server's start line says which community it is (its id and the panel as the bridge
// reads it), also when Redis answers only after the start, and servers that name one panel two ways are told.
import { afterEach, describe, expect, it } from 'vitest';
import { communityId } from '../../server/community/communities.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';

let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

const linesOf = (of: SimCommunity, index: number, level: string) =>
  of
    .consoleOf(of.sims[index] as never)
    .split('\n')
    .filter((line) => line.startsWith(level));

describe.skipIf(!redisAvailable())('the community a server is one of', () => {
  it('localhost and 127.0.0.1 for one panel: each start line names its community and panel, and one WARN says they are two', async () => {
    redis = await startRedisServer();
    const url = redis.url();
    community = await startSimCommunity({
      servers: 2,
      redisUrl: url,
      convarsOf: (index, panelUrl): Record<string, string> =>
        index === 1 ? { BRIDGE_API_BASE: panelUrl.replace('127.0.0.1', 'localhost') } : {},
    });
    await community.untilOnRedis();
    const panel = community.server.url;
    const localhost = panel.replace('127.0.0.1', 'localhost');
    expect(linesOf(community, 0, 'INFO')).toContainEqual(
      `INFO: this server is one of a community on Redis at ${url} (BRIDGE_REDIS_URL): community ${communityId(panel)} of the panel ${panel}, keys bridge:${communityId(panel)}:*`,
    );
    expect(linesOf(community, 1, 'INFO')).toContainEqual(
      expect.stringContaining(`community ${communityId(localhost)} of the panel ${localhost}`),
    );
    // Whichever server registers second finds the other at once (the first finds it at its next beat, 10 s on).
    const warnings = () => [0, 1].flatMap((index) => linesOf(community as SimCommunity, index, 'WARN'));
    await community.sims[0]?.until(() => warnings().length > 0, 10_000, 'the WARN');
    const told = (self: string, other: string) =>
      `WARN: another community, ${communityId(other)}, uses this Redis (BRIDGE_REDIS_URL); this server is community ${communityId(self)} of the panel ${self}. If both name one panel, give every server the same BRIDGE_API_BASE: until then they share no budget, profiles or counts (compare each server's start line)`;
    expect([[told(localhost, panel)], [told(panel, localhost)]]).toContainEqual(warnings());
  });

  it('Redis down at start: when it answers later, the line names the community, as a start with Redis does', async () => {
    redis = await startRedisServer();
    await redis.kill();
    community = await startSimCommunity({ servers: 1, redisUrl: redis.url() });
    const [sim] = community.sims;
    await sim?.until(() => linesOf(community as SimCommunity, 0, 'WARN').length > 0, 10_000, 'the WARN');
    await redis.restart();
    await community.untilOnRedis();
    const panel = community.server.url;
    expect(linesOf(community, 0, 'INFO')).toContainEqual(
      `INFO: this server is one of a community on Redis at ${redis.url()} (BRIDGE_REDIS_URL): community ${communityId(panel)} of the panel ${panel}, keys bridge:${communityId(panel)}:*`,
    );
    expect(community.consoleOf(sim as never)).not.toContain('answers again');
  });
});

describe.skipIf(!redisAvailable())('bridge status in a community', () => {
  /** The lines `bridge status` printed on that server, from the community line to the next section. */
  function communitySection(of: SimCommunity, index: number): string[] {
    const sim = of.sims[index];
    if (!sim) throw new Error('no server');
    const before = sim.console.length;
    sim.command('bridge status');
    const lines = sim.console.slice(before).map((line) => line.text);
    const from = lines.findIndex((line) => line.startsWith('community'));
    const end = lines.findIndex((line, at) => at > from && !line.startsWith(' '));
    return lines.slice(from, end);
  }

  it('shows the community, Redis answering and for how long, the servers alive, the shared budget; then Redis gone', async () => {
    redis = await startRedisServer();
    community = await startSimCommunity({ servers: 2, redisUrl: redis.url() });
    await community.untilOnRedis();
    const [first, second] = community.sims;
    // Both servers' counts are written at once; each reads the other's at its next 2 s beat.
    await first?.until(
      () => communitySection(community as SimCommunity, 0)[1]?.includes('2 server(s)') ?? false,
      10_000,
      'the second server',
    );
    await community.join(second as never, '284619375016482817', 'Alex Mercer');
    const panel = community.server.url;
    const section = communitySection(community, 0);
    expect(section[0]).toBe(`community ${communityId(panel)} of the panel ${panel}, on Redis at ${redis.url()}`);
    expect(section[1]).toMatch(/^ {10}Redis answers, for \d+ s; 2 server\(s\) of the community alive$/);
    expect(section[2]).toMatch(/^ {10}budget shared by the community \(\d server\(s\) asked it in the last minute\)$/);
    expect(section[3]).toBe('          held for Redis: nothing');

    await redis.kill();
    await first?.until(
      () => communitySection(community as SimCommunity, 0)[1]?.includes('DOES NOT ANSWER') ?? false,
      10_000,
      'Redis gone',
    );
    expect(communitySection(community, 0).slice(1, 3)).toEqual([
      expect.stringMatching(/^ {10}Redis DOES NOT ANSWER, for \d+ s \(.+\); this server serves its own players$/),
      expect.stringMatching(
        /^ {10}budget this server's own: 1\/\d of what the panel says is left, until Redis answers$/,
      ),
    ]);
  });
});
