import { filter, type Observable, Subscription } from 'rxjs';
import { PUBLIC_EVENTS } from '../../shared/events.js';
import { eachGuarded, type KeyValueStore, type Logger } from '../kernel/index.js';
import type { ProfileEntry, ProfileServed, ProfileUpdate } from './profile.js';
import type { ProfileCache } from './profile-cache.js';
import { ProfilePersistence } from './profile-cache.js';
import type { Profiles } from './profiles.js';

// The subscribers of `profiles$`: the client push, the KVP copy and the duty reconciliation.

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
 * kept, so call it before anything can ask for a profile. The duty reconciliation (`reconcileDuties`, below) is the
 * composition root's, subscribed once the duty exists and after these: a client hears of a profile before the
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

export interface ClientPushOptions {
  isConnected: (src: number) => boolean;
  emitClient: (event: string, src: number, ...args: unknown[]) => void;
  /** The client's duty snapshot, sent after every profile: its menu reads both together. */
  sendDutyState: (src: number) => void;
  logger: Logger;
}

/**
 * `bridge:client:profile` for every profile served to a player, whatever its status (cached, revalidating, fresh,
 * stale, or the reason there is none), followed by their duty snapshot. A player who left meanwhile gets nothing.
 */
export function pushProfilesToClients(profiles$: Observable<ProfileUpdate>, options: ClientPushOptions): Subscription {
  const { isConnected, emitClient, sendDutyState, logger } = options;
  const served$ = profiles$.pipe(
    filter((update): update is ProfileServed => update.kind === 'served'),
    filter(({ src }) => isConnected(src)),
  );
  return eachGuarded(served$, 'profile push', logger, ({ src, view }) => {
    emitClient(PUBLIC_EVENTS.profile, src, view.payload);
    sendDutyState(src);
  });
}

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

export interface DutyReconciliationOptions {
  /** `duty.submit({ kind: 'reconcile', src, profile })`: ends or changes the duty the profile no longer allows. */
  reconcile: (src: number, profile: ProfileEntry) => void;
  logger: Logger;
}

type Reconcilable = ProfileServed & { view: { entry: ProfileEntry } };

/**
 * A department removed, a rank changed or the account deleted in the panel reaches the duty of a player on duty:
 * every profile served to be checked against (a background refresh, a revalidation, /dutyrefresh) is handed to the
 * duty service, which ignores it for a player off duty. The panel's own answer that it does not know the account is
 * handed on too (an entry `not_registered`); an answer that is no profile at all (the panel could not be asked or
 * read: no entry) changes nothing.
 */
export function reconcileDuties(
  profiles$: Observable<ProfileUpdate>,
  { reconcile, logger }: DutyReconciliationOptions,
): Subscription {
  const checked$ = profiles$.pipe(
    filter(
      (update): update is Reconcilable =>
        update.kind === 'served' && update.checksDuty && update.view.entry !== undefined,
    ),
  );
  return eachGuarded(checked$, 'duty reconciliation', logger, ({ src, view }) => reconcile(src, view.entry));
}
