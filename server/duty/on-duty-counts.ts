import type { OnDutyCounts } from '../../shared/events.js';
import type { DutyState } from './duty-state.js';

/** Players on duty per department slug (the department's id when its slug is unknown). */
export function onDutyByDepartment(onDuty: ReadonlyArray<readonly [number, DutyState]>): Record<string, number> {
  // Without a prototype: a slug is the panel's text, and `__proto__` must count like any other.
  const counts: Record<string, number> = Object.create(null);
  for (const [, state] of onDuty) {
    const department = state.departmentSlug ?? String(state.departmentId);
    counts[department] = (counts[department] ?? 0) + 1;
  }
  return counts;
}

/**
 * What `GlobalState['bridge:onDutyCount']` holds: the count of each department someone is on duty in, and `total`.
 * A department whose slug is `total` is left out here (it would hide the total); GetOnDutyCount('total') has it.
 */
export function onDutyCounts(onDuty: ReadonlyArray<readonly [number, DutyState]>): OnDutyCounts {
  return { ...onDutyByDepartment(onDuty), total: onDuty.length };
}
