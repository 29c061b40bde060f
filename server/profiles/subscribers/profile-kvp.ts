import type { Observable, Subscription } from 'rxjs';
import type { Logger } from '../../kernel/index.js';
import { eachGuarded } from '../../kernel/index.js';
import type { ProfileCache } from '../profile-cache.js';
import type { ProfilePersistence } from '../profile-persistence.js';
import type { ProfileUpdate } from '../profile-updates.js';

export interface ProfileKvpOptions {
  cache: ProfileCache;
  persistence: ProfilePersistence;
  logger: Logger;
}

/**
 * The resource KVP copy of the cache, both ways: the profiles the last run kept are loaded at once, and from then
 * on a profile the cache takes is written with its TTL and one it lets go is deleted, so what the next run loads is
 * what this one held.
 */
export function keepProfilesInKvp(
  profiles$: Observable<ProfileUpdate>,
  { cache, persistence, logger }: ProfileKvpOptions,
): Subscription {
  // Subscribed before the restore: a kept profile too old to load is deleted through it.
  const subscription = eachGuarded(profiles$, 'profile persistence', logger, (update) => {
    if (update.kind === 'held') persistence.save(update.entry, update.ttlMs);
    else if (update.kind === 'dropped') persistence.delete(update.chatId);
  });
  const restored = cache.restore(persistence.loadAll());
  if (restored > 0) logger.info(`${restored} player profile(s) kept from the last run`);
  return subscription;
}
