import { Subscription } from 'rxjs';
import type { Logger } from '../log/logger.js';
import type { KeyValueStore } from '../storage/key-value-store.js';
import type { ProfileCache } from './profile-cache.js';
import type { ProfileEntry } from './profile-entry.js';
import { ProfilePersistence } from './profile-persistence.js';
import type { Profiles } from './profiles.js';
import { pushProfilesToClients } from './subscribers/client-push.js';
import { reconcileDuties } from './subscribers/duty-reconciliation.js';
import { keepProfilesInKvp } from './subscribers/profile-kvp.js';

export interface ProfileSubscribersOptions {
  profiles: Pick<Profiles, 'profiles$'>;
  /** Absent when the panel is not configured: nothing is cached, so nothing is kept in KVP either. */
  cache: ProfileCache | undefined;
  /** Resource KVP, where profiles survive a restart. */
  store: KeyValueStore;
  isConnected: (src: number) => boolean;
  emitClient: (event: string, src: number, ...args: unknown[]) => void;
  sendDutyState: (src: number) => void;
  /** `duty.submit({ kind: 'reconcile', src, profile })`. */
  reconcile: (src: number, profile: ProfileEntry) => void;
  logger: Logger;
}

/**
 * Subscribes the client push, the duty reconciliation and the KVP copy to `profiles.profiles$`; the KVP copy loads
 * the profiles the last run kept, so call it before anything can ask for a profile. Unsubscribing the result ends all
 * three.
 */
export function wireProfileSubscribers(options: ProfileSubscribersOptions): Subscription {
  const { profiles, cache, logger } = options;
  const subscription = new Subscription();
  // In this order: a client hears of a profile before the duty changes it brings (their events follow).
  subscription.add(pushProfilesToClients(profiles.profiles$, options));
  subscription.add(reconcileDuties(profiles.profiles$, options));
  if (cache) {
    const persistence = new ProfilePersistence(options.store);
    subscription.add(keepProfilesInKvp(profiles.profiles$, { cache, persistence, logger }));
  }
  return subscription;
}
