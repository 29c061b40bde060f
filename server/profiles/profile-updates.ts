import type { ProfilePayload } from '../../shared/events.js';
import type { ProfileEntry } from './profile-entry.js';

export interface ProfileView {
  payload: ProfilePayload;
  /** The entry the payload was made from, fresh or stale; absent when there is none. */
  entry: ProfileEntry | undefined;
  /** The panel could not be asked: the payload is the last profile known, not a fresh one. */
  stale?: boolean;
  /** The profile is past its TTL and a refresh is on its way (it arrives on `profiles$` when done). */
  revalidating?: boolean;
}

/**
 * How current a served profile is: `cached` within its TTL, `revalidating` past it with a refresh on its way,
 * `fresh` just answered by the panel, `stale` the last one known because the panel could not be asked, `none` no
 * profile at all (the payload says why).
 */
export type ProfileStatus = 'cached' | 'revalidating' | 'fresh' | 'stale' | 'none';

/** The cache took a profile from the panel; it stays within its TTL for `ttlMs`. */
export interface ProfileHeld {
  kind: 'held';
  chatId: string;
  entry: ProfileEntry;
  ttlMs: number;
}

/** The cache let a profile go: the LRU bound evicted it, or it was too old to be restored at start. */
export interface ProfileDropped {
  kind: 'dropped';
  chatId: string;
}

/** A profile on its way to one player's session. */
export interface ProfileServed {
  kind: 'served';
  src: number;
  /** Absent for a player with no chat account, or when the bridge is not configured: no profile, only the reason. */
  chatId: string | undefined;
  status: ProfileStatus;
  view: ProfileView;
  /**
   * Their duty is checked against it: a profile refreshed in the background or on the player's request. The copy sent
   * when a client becomes ready is not (a stale one is revalidated and checked when it arrives), nor the refetch the
   * duty service asked for itself.
   */
  checksDuty: boolean;
}

/** Everything that happens to the profiles of chat accounts, in order: the one stream the profile subscribers read. */
export type ProfileUpdate = ProfileHeld | ProfileDropped | ProfileServed;
