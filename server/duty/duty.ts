import { NEVER, type Observable, of } from 'rxjs';
import type { DutyEndReason, DutyOutcome } from '../../shared/events.js';
import type { PanelFailure } from '../panel/index.js';
import type { ProfileEntry } from '../profiles/index.js';
import { type DutyChange, type DutyState, OFF_DUTY } from './duty-model.js';

// The duty as the rest of the bridge sees it: what it is asked (requests and intents), what it offers (`Duty`), and
// the duty of a bridge that is not configured.

/** A request whose caller waits for the outcome: a player's own, an export's, an admin's. */
export type DutyRequest =
  /** `departmentId` null: the player chose none (refused, `no_department_selected`). */
  | { kind: 'on'; src: number; departmentId: number | null }
  | { kind: 'off'; src: number; reason: DutyEndReason; resumable?: boolean };

/** How a session left (server/edge/client-events.ts): `dropped` unless txAdmin kicked or banned it. */
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

/** What may change a player's duty; every intent goes through the player's chat account's lane, one at a time. */
export type DutyIntent =
  | { kind: 'on'; src: number; departmentId: number }
  /**
   * `resumable`: the session dropped because its game crashed or timed out; with Config.ResumeWindowMs the shift is
   * held for the account instead of ended.
   */
  | { kind: 'off'; src: number; reason: DutyEndReason; resumable?: boolean }
  /** A session of an account whose shift is held came in: it takes the shift, if its profile still allows it. */
  | { kind: 'resume'; src: number }
  /**
   * In a community: the account joined here as `src` while its shift was held on another server, and this server's
   * claim took it over (`leftMs` of its window left). Nothing reached the panel, which never ended the shift.
   */
  | {
      kind: 'heldElsewhere';
      src: number;
      chatId: string;
      departmentId: number;
      rankId: number;
      since: number;
      leftMs: number;
    }
  /** The resume window of the shift `src` dropped from ran out. */
  | { kind: 'heldLapsed'; src: number; chatId: string }
  /** A refreshed profile: a removed department ends the duty, a new rank replaces the old one. */
  | { kind: 'reconcile'; src: number; profile: ProfileEntry }
  /**
   * The community settled the account's duty on another server's claim (server/community/duty-owners.ts): `replaced`
   * as it happened, `superseded` after a fault. `panelOff`: that claim had ended, so this session's own duty may be the
   * one left at the panel, and an `off` (sent only while no live claim exists) ends it there.
   */
  | { kind: 'takenElsewhere'; src: number; chatId: string; reason: 'replaced' | 'superseded'; panelOff: boolean }
  /** This session's claim must send its `on` again: another server's calls may have reached the panel after it. */
  | { kind: 'restate'; src: number; chatId: string }
  /**
   * The panel refused an `on` the game had already applied: one sent while it was unreachable (degraded mode
   * `queue`), or the new rank of a player on duty. The duty service submits it itself.
   */
  | {
      kind: 'queuedOnRefused';
      src: number;
      departmentId: number;
      since: number;
      failure: PanelFailure;
      retried: boolean;
    };

/** An intent as it travels: the id correlates it with its outcome. */
export interface SubmittedIntent {
  id: number;
  intent: DutyIntent;
}

const NOT_CONFIGURED: DutyOutcome = {
  ok: false,
  error: 'not_configured',
  message: 'the duty system is not configured',
};

/** The duty of a bridge without its convars: nobody is ever on duty, and every request says why. */
export const NOT_CONFIGURED_DUTY: Duty = {
  dutyChanges$: NEVER,
  dutyState$: () => of(OFF_DUTY),
  state: () => OFF_DUTY,
  onDutyPlayers: () => [],
  submit: () => {},
  request: () => Promise.resolve(NOT_CONFIGURED),
  leave: () => Promise.resolve(),
  forget: () => {},
  forceOffNow: () => {},
  endAll: () => {},
  footprint: () => ({}),
  stop: () => {},
};
