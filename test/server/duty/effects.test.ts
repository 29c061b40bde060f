import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type DutyChange, type DutyState, OFF_DUTY } from '../../../server/duty/duty-model.js';
import { emitClientDutyEvents, emitServerDutyEvents, publishOnDutyCounts } from '../../../server/duty/effects.js';
import { createLogger } from '../../../server/kernel/log.js';
import {
  type DutyEndReason,
  INTERNAL_EVENTS,
  type OffDutyReason,
  ON_DUTY_COUNT_KEY,
  PUBLIC_EVENTS,
} from '../../../shared/events.js';

// What other resources and the player's client hear of a duty that stays on while the panel changes it: a new rank,
// a renamed department, or both at once.

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

// What bridge:client:offDuty promises (OffDutyReason) is what the server sends: every reason but 'dropped', which
// would go to a player who has no client left.
const ON_LSPD = {
  onDuty: true,
  departmentId: 1,
  departmentSlug: 'lspd',
  departmentName: 'LSPD',
  rankId: 2,
  since: 1_000,
};

const offChange = (reason: DutyEndReason): DutyChange => ({
  kind: 'off',
  src: 7,
  chatId: '284619375016482817',
  previous: ON_LSPD,
  next: OFF_DUTY,
  reason,
});

function offDutyEventsFor(reason: DutyEndReason): unknown[][] {
  const sent: unknown[][] = [];
  const changes$ = new Subject<DutyChange>();
  const lines: string[] = [];
  const subscription = emitClientDutyEvents(
    { emitClient: (event, src, ...args) => event === PUBLIC_EVENTS.offDuty && sent.push([src, ...args]) },
    createLogger({ print: (line) => lines.push(line) }),
  )(changes$);
  changes$.next(offChange(reason));
  subscription.unsubscribe();
  expect(lines).toEqual([]);
  return sent;
}

describe("the client's offDuty event", () => {
  const toClient: Record<OffDutyReason, true> = {
    request: true,
    department_removed: true,
    account_removed: true,
    resource_stop: true,
    admin: true,
    replaced: true,
    superseded: true,
    server_shutdown: true,
    kicked: true,
    banned: true,
  };

  it.each(Object.keys(toClient) as OffDutyReason[])('tells the player why, for %s', (reason) => {
    expect(offDutyEventsFor(reason)).toEqual([[7, { departmentId: 1, reason }]]);
  });

  it('is not sent for a player who dropped: the one reason the client types leave out', () => {
    expect(offDutyEventsFor('dropped')).toEqual([]);
  });
});

// GlobalState['bridge:onDutyCount'] as the effect keeps it, fed the duty changes a duty service announces.

const onDuty = (departmentId: number, slug: string, rankId: number): DutyState => ({
  onDuty: true,
  departmentId,
  departmentSlug: slug,
  departmentName: slug.toUpperCase(),
  rankId,
  since: 1,
});

function setUp() {
  const states = new Map<number, DutyState>();
  const changes$ = new Subject<DutyChange>();
  const published: unknown[] = [];
  const lines: string[] = [];
  const subscription = publishOnDutyCounts(
    {
      onDutyPlayers: () => [...states.entries()].filter(([, state]) => state.onDuty),
      setGlobalState: (key, value) => {
        expect(key).toBe(ON_DUTY_COUNT_KEY);
        published.push(value);
      },
    },
    createLogger({ print: (line) => lines.push(line) }),
  )(changes$);
  // As the duty service does: the state is applied, then the change announced.
  const change = (src: number, next: DutyState, kind: 'on' | 'rank' | 'off' = next.onDuty ? 'on' : 'off') => {
    const previous = states.get(src) ?? OFF_DUTY;
    states.set(src, next);
    changes$.next({ kind, src, chatId: undefined, previous, next, reason: 'request' } as unknown as DutyChange);
  };
  return { published, lines, change, subscription };
}

describe('the on-duty counts in GlobalState', () => {
  it('are published at start, then after each change that moves a count', () => {
    const { published, change } = setUp();
    expect(published).toEqual([{ total: 0 }]);
    change(7, onDuty(1, 'lspd', 2));
    change(8, onDuty(1, 'lspd', 1));
    change(9, onDuty(2, 'bcso', 4));
    change(7, onDuty(1, 'lspd', 3), 'rank');
    change(8, OFF_DUTY);
    change(9, OFF_DUTY);
    change(7, onDuty(2, 'bcso', 4));
    expect(published).toEqual([
      { total: 0 },
      { lspd: 1, total: 1 },
      { lspd: 2, total: 2 },
      { lspd: 2, bcso: 1, total: 3 },
      { lspd: 1, bcso: 1, total: 2 },
      { lspd: 1, total: 1 },
      { bcso: 1, total: 1 },
    ]);
  });

  it('keep total for everyone when a department is called "total", and say so once', () => {
    const { published, change, lines } = setUp();
    change(7, onDuty(4, 'total', 1));
    change(8, onDuty(1, 'lspd', 2));
    expect(published.at(-1)).toEqual({ lspd: 1, total: 2 });
    expect(lines).toEqual([
      `WARN: a department's slug is "total": ${ON_DUTY_COUNT_KEY}.total is everyone on duty, so that department's count is only in GetOnDutyCount('total')`,
    ]);
  });

  it('go on after a publish that failed, and stop with their subscription', () => {
    const states = new Map<number, DutyState>();
    const changes$ = new Subject<DutyChange>();
    const published: unknown[] = [];
    const lines: string[] = [];
    let broken = true;
    const subscription = publishOnDutyCounts(
      {
        onDutyPlayers: () => [...states.entries()],
        setGlobalState: (_key, value) => {
          if (broken) throw new Error('no GlobalState');
          published.push(value);
        },
      },
      createLogger({ print: (line) => lines.push(line) }),
    )(changes$);
    broken = false;
    states.set(7, onDuty(1, 'lspd', 2));
    changes$.next({ kind: 'on', src: 7 } as unknown as DutyChange);
    subscription.unsubscribe();
    changes$.next({ kind: 'on', src: 8 } as unknown as DutyChange);
    expect(published).toEqual([{ lspd: 1, total: 1 }]);
    expect(lines).toEqual(['ERROR: the on-duty count could not be published: Error: no GlobalState']);
  });
});
