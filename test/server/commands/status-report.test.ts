// The community's part of `bridge status` (issue 31, "Redis for an owner" item 5): whether Redis answers and since
// when, the community's id and panel, the servers alive, the shared budget and what waits for Redis. dist/redis.cjs
// words it (community-status-lines.ts); dist/server.js places it, or says why this server runs alone.
import { describe, expect, it } from 'vitest';
import type { CommunitySnapshot, Settling } from '../../../server/community/community.js';
import { communityStatusLines } from '../../../server/community/community-status-lines.js';
import type { HeldCall } from '../../../server/community/held-for-redis.js';
import { formatStatus } from '../../../server/edge/commands/status.js';
import type { StatusSnapshot } from '../../../server/metrics/index.js';

const NOW = 1_000_000;

const base: StatusSnapshot = {
  now: NOW,
  wallNow: NOW,
  panel: undefined,
  cachedProfiles: 0,
  playersOnline: 0,
  playersOnDuty: 0,
};

type Community = CommunitySnapshot & { held: HeldCall[]; settling?: Settling | undefined };

const answering: Community = {
  id: '3f2a9c71d04e8b65',
  panel: 'https://panel.example.com',
  where: 'redis://***@10.0.0.5:6379/0',
  up: true,
  since: NOW - 192_000,
  reason: undefined,
  serversAlive: 3,
  budget: { shared: true, servers: 2, aloneForMs: undefined },
  held: [],
};

/** The lines of the community's section: from `community` to the line before the next section. */
function communityLines(given: Community | { alone: string } | undefined): string[] {
  const community: StatusSnapshot['community'] =
    given === undefined || 'alone' in given
      ? given
      : { lines: communityStatusLines(given, given.held, NOW, given.settling) };
  const lines = formatStatus({ ...base, community });
  const from = lines.findIndex((line) => line.startsWith('community'));
  if (from < 0) return [];
  const end = lines.findIndex((line, index) => index > from && !line.startsWith(' '));
  return lines.slice(from, end < 0 ? undefined : end);
}

describe('bridge status: the community', () => {
  it('Redis answering: the id, the panel and Redis, for how long, the servers alive and the shared budget', () => {
    expect(communityLines(answering)).toEqual([
      'community 3f2a9c71d04e8b65 of the panel https://panel.example.com, on Redis at redis://***@10.0.0.5:6379/0',
      '          Redis answers, for 192 s; 3 server(s) of the community alive',
      '          budget shared by the community (2 server(s) asked it in the last minute)',
      '          held for Redis: nothing',
    ]);
  });

  it('Redis gone: for how long and why, and the budget this server paces alone', () => {
    expect(
      communityLines({
        ...answering,
        up: false,
        since: NOW - 12_000,
        reason: 'connect ECONNREFUSED 10.0.0.5:6379',
        budget: { shared: false, servers: 2, aloneForMs: undefined },
      }),
    ).toEqual([
      'community 3f2a9c71d04e8b65 of the panel https://panel.example.com, on Redis at redis://***@10.0.0.5:6379/0',
      '          Redis DOES NOT ANSWER, for 12 s (connect ECONNREFUSED 10.0.0.5:6379); this server serves its own players',
      "          budget this server's own: 1/2 of what the panel says is left, until Redis answers",
      '          held for Redis: nothing',
    ]);
  });

  it('Redis too slow: the budget is decided alone for a while, and says for how long', () => {
    expect(communityLines({ ...answering, budget: { shared: false, servers: 3, aloneForMs: 4_000 } })).toContain(
      "          budget this server's own for 4 s more (Redis was too slow three times in a row): 1/3 of what the panel says is left",
    );
  });

  it('calls held for Redis: each, and how long it has waited, the oldest first', () => {
    expect(
      communityLines({
        ...answering,
        up: false,
        since: NOW - 40_000,
        reason: 'connection closed',
        held: [
          { what: 'off duty of chat account 284619375016482817 (left open by the last run)', since: NOW - 35_000 },
          { what: 'off duty of chat account 519283746501928374 (left open by the last run)', since: NOW - 35_000 },
        ],
      }).slice(3),
    ).toEqual([
      '          held for Redis: 2 call(s)',
      '            off duty of chat account 284619375016482817 (left open by the last run), for 35 s',
      '            off duty of chat account 519283746501928374 (left open by the last run), for 35 s',
    ]);
  });

  it('more than five calls held: the first five, then how many more', () => {
    const held = Array.from({ length: 7 }, (_, index) => ({
      what: `off of chat account ${index + 1}`,
      since: NOW - 9_000,
    }));
    expect(communityLines({ ...answering, held }).slice(3)).toEqual([
      '          held for Redis: 7 call(s)',
      ...[1, 2, 3, 4, 5].map((index) => `            off of chat account ${index}, for 9 s`),
      '            and 2 more',
    ]);
  });

  it('before Redis first answered or failed: says it is connecting', () => {
    expect(communityLines({ ...answering, up: false, since: undefined })[1]).toBe(
      '          Redis not answered yet: connecting',
    );
  });

  it('without a community: one line saying why this server runs alone', () => {
    expect(communityLines({ alone: 'BRIDGE_REDIS_URL is not set' })).toEqual([
      'community none: BRIDGE_REDIS_URL is not set; this server runs alone',
    ]);
    expect(communityLines(undefined)).toEqual([]);
  });
});

describe('bridge status: what the duty owners still settle on their own after a fault', () => {
  const idle: Settling = {
    claims: 0,
    restates: 0,
    nextRestateInMs: undefined,
    checkAgainInMs: undefined,
    takeovers: 0,
  };
  const settlingLine = (settling: Settling | undefined) =>
    communityLines({ ...answering, settling }).find((line) => line.trimStart().startsWith('duty owners'));

  it('says the duty owners settled once they have nothing left to do on their own', () => {
    expect(communityLines({ ...answering, settling: idle }).at(-1)).toBe('          duty owners settled');
    expect(settlingLine(undefined)).toBeUndefined();
  });

  it('lists what is left: claims being written, ons to send again, the check after Redis came back, takeovers', () => {
    const busy = { claims: 2, restates: 1, nextRestateInMs: 7_400, checkAgainInMs: 3_200, takeovers: 1 };
    expect(settlingLine(busy)).toBe(
      '          duty owners settling: 2 claim(s) being written, 1 on(s) to send again, the first in 7 s, every claim checked again in 3 s, 1 lapsed server(s) being taken over',
    );
    expect(settlingLine({ ...idle, checkAgainInMs: 0 })).toBe(
      '          duty owners settling: every claim checked again in 0 s',
    );
  });
});
