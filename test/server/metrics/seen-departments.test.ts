import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { DutyChange } from '../../../server/duty/duty-model.js';
import { OFF_DUTY } from '../../../server/duty/duty-model.js';
import { departmentsSeen$, SeenDepartments } from '../../../server/metrics/seen-departments.js';
import type { ProfileUpdate } from '../../../server/profiles/profile.js';

const department = (id: number, slug: string) => ({
  id,
  slug,
  name: slug.toUpperCase(),
  rank: { id: 1, name: 'One' },
  data: {},
});

describe('the departments the metrics keep at 0', () => {
  it('are those of the profiles held and served, and of each duty begun (its id when the slug is unknown)', () => {
    const profiles$ = new Subject<ProfileUpdate>();
    const changes$ = new Subject<DutyChange>();
    const seen: string[] = [];
    const subscription = departmentsSeen$(profiles$, changes$).subscribe((news) => {
      if (news.kind === 'seen') seen.push(news.slug);
    });
    profiles$.next({
      kind: 'held',
      chatId: '1',
      ttlMs: 1000,
      entry: { kind: 'found', chatId: '1', departments: [department(1, 'lspd'), department(2, 'bcso')], fetchedAt: 0 },
    });
    profiles$.next({
      kind: 'held',
      chatId: '2',
      ttlMs: 1000,
      entry: { kind: 'not_registered', chatId: '2', fetchedAt: 0 },
    });
    profiles$.next({ kind: 'dropped', chatId: '1' });
    const next = { onDuty: true, departmentId: 9, departmentSlug: null, departmentName: null, rankId: 1, since: 0 };
    changes$.next({
      kind: 'on',
      src: 3,
      chatId: '3',
      previous: OFF_DUTY,
      next,
      department: { id: 9, slug: 'safr', name: 'SAFR', rank: { id: 1, name: 'One' } } as never,
    });
    changes$.next({ kind: 'off', src: 3, chatId: '3', previous: next, next: OFF_DUTY, reason: 'request' });
    subscription.unsubscribe();
    expect(seen).toEqual(['lspd', 'bcso', '9']);
  });

  it('leave out the old slug of a department the panel renamed, which no longer exists under it', () => {
    const profiles$ = new Subject<ProfileUpdate>();
    const changes$ = new Subject<DutyChange>();
    const seen = new SeenDepartments();
    const subscription = departmentsSeen$(profiles$, changes$).subscribe((news) => seen.take(news));
    const lspd = { onDuty: true, departmentId: 1, departmentSlug: 'lspd', departmentName: 'LSPD', rankId: 1, since: 0 };
    const lapd = { ...lspd, departmentSlug: 'lapd', departmentName: 'LAPD' };
    const payload = { departmentId: 1, slug: 'lapd', name: 'LAPD', rank: { id: 1, name: 'One' }, data: {} };
    changes$.next({ kind: 'on', src: 3, chatId: '3', previous: OFF_DUTY, next: lspd, department: payload as never });
    changes$.next({ kind: 'renamed', src: 3, chatId: '3', previous: lspd, next: lapd, department: payload as never });
    subscription.unsubscribe();
    expect(seen.withZeros({ lapd: 1 })).toEqual({ lapd: 1 });
  });

  it('stay at 0 next to the counts, and a panel that sends a new slug every time cannot grow them past 256', () => {
    const seen = new SeenDepartments();
    seen.add('lspd');
    seen.add('bcso');
    expect(seen.withZeros({ safr: 2 })).toEqual({ lspd: 0, bcso: 0, safr: 2 });
    expect(seen.withZeros({})).toEqual({ lspd: 0, bcso: 0, safr: 0 });
    for (let n = 0; n < 1000; n++) seen.add(`dept_${n}`);
    expect(Object.keys(seen.withZeros({}))).toHaveLength(256);
    // Past the bound a department still shows while someone is on duty there.
    expect(seen.withZeros({ late: 1 }).late).toBe(1);
    expect(Object.keys(seen.withZeros({ late: 1 }))).toHaveLength(257);
  });
});
