import type { DutySnapshot } from '../../shared/events.js';

export interface DutyState extends DutySnapshot {
  departmentSlug: string | null;
}

export const OFF_DUTY: DutyState = Object.freeze({
  onDuty: false,
  departmentId: null,
  departmentSlug: null,
  rankId: null,
  since: null,
});

export const snapshotOf = ({ onDuty, departmentId, rankId, since }: DutyState): DutySnapshot => ({
  onDuty,
  departmentId,
  rankId,
  since,
});
