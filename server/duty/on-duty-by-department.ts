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
