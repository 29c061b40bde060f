import type { DeptDataPayload, DutyEndReason } from '../../shared/events.js';
import type { DutyState } from './duty-state.js';

interface Transition {
  src: number;
  /** The player's chat account; undefined for a player without one (who never goes on duty). */
  chatId: string | undefined;
  previous: DutyState;
  next: DutyState;
}

/**
 * One transition of a player's duty, as `dutyChanges$` announces it: every effect (events, state bag, crash record,
 * integrations, polling) is a subscriber of these and of nothing else.
 */
export type DutyChange =
  /**
   * Went on duty, in a department the panel accepted (or, degraded mode `queue`, that the panel will learn of).
   * `department.resumed`: the account's held shift goes on (Config.ResumeWindowMs), already open at the panel.
   */
  | (Transition & { kind: 'on'; department: DeptDataPayload })
  /** Still on duty in the same department, with the rank the panel now gives (and its slug and name now). */
  | (Transition & { kind: 'rank'; department: DeptDataPayload })
  /** Still on duty in the same department with the same rank, under the slug or name the panel now gives it. */
  | (Transition & { kind: 'renamed'; department: DeptDataPayload })
  /**
   * Went off duty; `previous.departmentId` is the department that ended. `resumable`: the session's game crashed or
   * timed out and the panel keeps the shift, held for Config.ResumeWindowMs (its crash record stays).
   */
  | (Transition & { kind: 'off'; reason: DutyEndReason; resumable?: true });

/** The department a change concerns: the one entered, or for going off duty the one that ended. */
export const departmentOf = (change: DutyChange): number | null =>
  change.kind === 'off' ? change.previous.departmentId : change.next.departmentId;
