import type { DutyEndReason } from '../../shared/events.js';

/** A player's duty after the bridge changed it, as integrations receive it. */
export interface DutyChange {
  src: number;
  onDuty: boolean;
  departmentId: number | null;
  departmentSlug: string | null;
  rankId: number | null;
  /** Why the player went off duty; absent when going on duty. */
  reason?: DutyEndReason;
}

export type { ResourcePort } from '../kernel/index.js';

/** Asks the bridge to change a player's duty, for integrations that pass changes back (rcore_police). */
export interface DutyControl {
  isOnDuty(src: number): boolean;
  takeOffDuty(src: number, reason: DutyEndReason): void;
}

/** One integration: told every duty change the bridge makes; never throws into the bridge. */
export interface Integration {
  readonly name: string;
  dutyChanged(change: DutyChange): void;
  /** Every integration has heard of the change (what depends on what the others did then, runs now). */
  settled?(change: DutyChange): void;
  /** The player left; forget what is kept about them (called after the drop's own duty change, if any). */
  playerDropped?(src: number): void;
  /** Entries held per player, by where they are held: all zero once everyone has left and their calls ended. */
  footprint?(): Record<string, number>;
}
