import type { DutySnapshot } from '../../shared/events.js';

/**
 * A player's duty. The department's slug and name are the panel's latest for its id: the duty follows the department
 * when the panel renames it.
 */
export interface DutyState extends DutySnapshot {
  departmentSlug: string | null;
  departmentName: string | null;
}

export const OFF_DUTY: DutyState = Object.freeze({
  onDuty: false,
  departmentId: null,
  departmentSlug: null,
  departmentName: null,
  rankId: null,
  since: null,
});

export const snapshotOf = ({ onDuty, departmentId, rankId, since }: DutyState): DutySnapshot => ({
  onDuty,
  departmentId,
  rankId,
  since,
});

/**
 * A shift of this server: the session and the moment its duty began. It is the same across a rank change or a
 * renamed department (the duty's `since` stays), new with every `on`, and readable from the open-duty ledger after a
 * crash (the record keeps both).
 */
export const shiftOf = (src: number, since: number): string => `${src}:${since}`;
