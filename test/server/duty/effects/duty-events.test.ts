// What other resources and the player's client hear of a duty that stays on while the panel changes it: a new rank,
// a renamed department, or both at once.
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { DutyChange } from '../../../../server/duty/duty-change.js';
import type { DutyState } from '../../../../server/duty/duty-state.js';
import { emitClientDutyEvents } from '../../../../server/duty/effects/client-duty-events.js';
import { emitServerDutyEvents } from '../../../../server/duty/effects/server-duty-events.js';
import { createLogger } from '../../../../server/kernel/log.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../../shared/events.js';

const ALEX = '284619375016482817';
const lspd: DutyState = {
  onDuty: true,
  departmentId: 1,
  departmentSlug: 'lspd',
  departmentName: 'Los Santos Police Department',
  rankId: 2,
  since: 1_000,
};

const changeTo = (kind: 'rank' | 'renamed', next: DutyState): DutyChange => ({
  kind,
  src: 7,
  chatId: ALEX,
  previous: lspd,
  next,
  department: {
    departmentId: 1,
    slug: next.departmentSlug ?? '',
    name: next.departmentName ?? '',
    rank: { id: next.rankId ?? 0, name: `rank ${next.rankId}` },
    data: {},
  },
});

function heard(change: DutyChange) {
  const changes$ = new Subject<DutyChange>();
  const server: unknown[][] = [];
  const client: unknown[][] = [];
  const logger = createLogger({ print: () => {} });
  emitServerDutyEvents({ emitLocal: (event, ...args) => server.push([event, ...args]) }, logger)(changes$);
  emitClientDutyEvents({ emitClient: (event, src, ...args) => client.push([event, src, ...args]) }, logger)(changes$);
  changes$.next(change);
  return { server, client };
}

describe('a duty the panel changes while it goes on', () => {
  it('renamed: playerDepartmentRenamed with the new and the old slug, deptData again, no rank notice', () => {
    const { server, client } = heard(changeTo('renamed', { ...lspd, departmentSlug: 'lapd', departmentName: 'LAPD' }));
    expect(server).toEqual([[PUBLIC_EVENTS.playerDepartmentRenamed, 7, 1, 'lapd', 'lspd']]);
    expect(client.map(([event]) => event)).toEqual([PUBLIC_EVENTS.deptData, INTERNAL_EVENTS.dutyState]);
    expect(client[0]).toEqual([PUBLIC_EVENTS.deptData, 7, expect.objectContaining({ slug: 'lapd', name: 'LAPD' })]);
  });

  it('renamed with the same slug (a new name): the event names the slug twice', () => {
    const { server } = heard(changeTo('renamed', { ...lspd, departmentName: 'LSPD' }));
    expect(server).toEqual([[PUBLIC_EVENTS.playerDepartmentRenamed, 7, 1, 'lspd', 'lspd']]);
  });

  it('a new rank and a new slug at once: playerRankChanged, then playerDepartmentRenamed', () => {
    const { server, client } = heard(changeTo('rank', { ...lspd, departmentSlug: 'lapd', rankId: 3 }));
    expect(server).toEqual([
      [PUBLIC_EVENTS.playerRankChanged, 7, 1, 3],
      [PUBLIC_EVENTS.playerDepartmentRenamed, 7, 1, 'lapd', 'lspd'],
    ]);
    expect(client.at(-1)).toEqual([INTERNAL_EVENTS.notify, 7, 'rank_changed', { rank: 'rank 3' }]);
  });

  it('a new rank alone: playerRankChanged only', () => {
    const { server } = heard(changeTo('rank', { ...lspd, rankId: 3 }));
    expect(server).toEqual([[PUBLIC_EVENTS.playerRankChanged, 7, 1, 3]]);
  });
});
