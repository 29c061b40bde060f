import type { Observable } from 'rxjs';
import type { DutyEndReason, DutyOutcome } from '../../shared/events.js';
import type { DutyIntent } from './duty-intent.js';
import type { DutyChange, DutyState } from './duty-model.js';

/** A request whose caller waits for the outcome: a player's own, an export's, an admin's. */
export type DutyRequest =
  /** `departmentId` null: the player chose none (refused, `no_department_selected`). */
  | { kind: 'on'; src: number; departmentId: number | null }
  | { kind: 'off'; src: number; reason: DutyEndReason; resumable?: boolean };

/** How a session left (server/edge/players/drop-reading.ts): `dropped` unless txAdmin kicked or banned it. */
export interface Drop {
  reason?: DutyEndReason;
  /** Its game crashed or timed out: with Config.ResumeWindowMs its shift is held for the account. */
  resumable?: boolean;
}

/** What there is to a player's duty: what the rest of the bridge reads from it, asks of it and hears from it. */
export interface Duty {
  /** Every transition of a player's duty, in the order they happen. */
  readonly dutyChanges$: Observable<DutyChange>;
  /** A player's duty: the current one, then each change. */
  dutyState$(src: number): Observable<DutyState>;
  state(src: number): DutyState;
  /** The same array until a duty changes. */
  onDutyPlayers(): ReadonlyArray<readonly [number, DutyState]>;
  submit(intent: DutyIntent): void;
  request(request: DutyRequest): Promise<DutyOutcome>;
  /** A session dropped: resolves once its duty has ended (or its shift is held). */
  leave(src: number, drop?: Drop): Promise<void>;
  /** The player is gone from everywhere else. */
  forget(src: number): void;
  /** Takes a player off duty at once, outside their queue: for a resource that is stopping. */
  forceOffNow(src: number, reason: DutyEndReason): void;
  /** Every duty and every held shift ends at once: the server is going away. */
  endAll(reason: DutyEndReason): void;
  footprint(): Record<string, number>;
  stop(): void;
}
