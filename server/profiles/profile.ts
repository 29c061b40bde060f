import type { Observable } from 'rxjs';
import type { Department } from '../../shared/contract/index.js';
import type { ProfilePayload } from '../../shared/events.js';

// What a profile is: the panel's answer for a chat account, the community's copy of it, and the updates `profiles$`
// announces.

/**
 * A chat account's profile as the panel last answered it. `fetchedAt` is a moment in the world (wall clock, epoch
 * ms): clients see it, and KVP keeps it across restarts.
 */
export type ProfileEntry =
  | { kind: 'found'; chatId: string; departments: Department[]; fetchedAt: number }
  | { kind: 'not_registered'; chatId: string; fetchedAt: number };

/** A profile another server of the community fetched, and how old it is by Redis's clock. */
export interface SharedProfile {
  entry: ProfileEntry;
  ageMs: number;
}

/** Profiles fetched once for the community (server/community/community-profiles.ts implements it). */
export interface CommunityProfiles {
  /** The community's copy of an account's profile while it is fresh; nothing when there is none, or Redis is gone. */
  read(chatId: string): Promise<SharedProfile | undefined>;
  /** This server got the profile from the panel: the community's copy becomes it, and the others hear of it. */
  publish(entry: ProfileEntry, ttlMs: number): void;
  /** A profile fresh here for `freshForMs` more, written unless the community holds one (Redis came back). */
  offer(entry: ProfileEntry, ttlMs: number, freshForMs: number): void;
  /** The chat ids whose profile another server got from the panel again. */
  readonly renewed$: Observable<string>;
  /** Redis answers (again): what this server holds is offered again. */
  readonly connected$: Observable<void>;
}

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
