import { Subscription } from 'rxjs';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import type { ProfileCache } from './profile-cache.js';
import { ProfilePersistence } from './profile-persistence.js';
import type { Profiles } from './profiles.js';
import { pushProfilesToClients } from './subscribers/client-push.js';
import { keepProfilesInKvp } from './subscribers/profile-kvp.js';

export interface ProfileSubscribersOptions {
  profiles: Pick<Profiles, 'profiles$'>;
  /** Absent when the panel is not configured: nothing is cached, so nothing is kept in KVP either. */
  cache: ProfileCache | undefined;
  /** Resource KVP, where profiles survive a restart. */
  store: KeyValueStore;
  isConnected: (src: number) => boolean;
  emitClient: (event: string, src: number, ...args: unknown[]) => void;
  /** The client's duty snapshot, sent after every profile: its menu shows both as the server has them. */
  sendDutyState: (src: number) => void;
  logger: Logger;
}

/**
 * Subscribes the client push and the KVP copy to `profiles.profiles$`; the KVP copy loads the profiles the last run
 * kept, so call it before anything can ask for a profile. The duty reconciliation (`subscribers/duty-reconciliation.ts`)
 * is the composition root's, subscribed once the duty exists and after these: a client hears of a profile before the
 * duty changes it brings (their events follow). Unsubscribing the result ends both.
 */
export function wireProfileSubscribers(options: ProfileSubscribersOptions): Subscription {
  const { profiles, cache, logger } = options;
  const subscription = new Subscription();
  subscription.add(pushProfilesToClients(profiles.profiles$, options));
  if (cache) {
    const persistence = new ProfilePersistence(options.store);
    subscription.add(keepProfilesInKvp(profiles.profiles$, { cache, persistence, logger }));
  }
  return subscription;
}
