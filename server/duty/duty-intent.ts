import type { DutyEndReason } from '../../shared/events.js';
import type { PanelFailure } from '../panel/index.js';
import type { ProfileEntry } from '../profiles/index.js';

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
