// GlobalState['bridge:onDutyCount'] as the effect keeps it, fed the duty changes a duty service announces.
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { DutyChange } from '../../../../server/duty/duty-change.js';
import { type DutyState, OFF_DUTY } from '../../../../server/duty/duty-state.js';
import { publishOnDutyCounts } from '../../../../server/duty/effects/on-duty-count.js';
import { createLogger } from '../../../../server/kernel/log.js';
import { ON_DUTY_COUNT_KEY } from '../../../../shared/events.js';

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
