import type { Department } from '../../shared/contract/index.js';

/**
 * A chat account's profile as the panel last answered it. `fetchedAt` is a moment in the world (wall clock, epoch
 * ms): clients see it, and KVP keeps it across restarts.
 */
export type ProfileEntry =
  | { kind: 'found'; chatId: string; departments: Department[]; fetchedAt: number }
  | { kind: 'not_registered'; chatId: string; fetchedAt: number };
