import type { Observable } from 'rxjs';
import type { Department } from '../../shared/contract/index.js';

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
