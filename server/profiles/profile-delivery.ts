import type { Subscription } from 'rxjs';
import { INTERNAL_EVENTS } from '../../shared/events.js';
import type { Messages } from '../../shared/locale.js';
import type { CommunityProfiles } from '../community/community.js';
import type { DutyState } from '../duty/duty-state.js';
import { snapshotOf } from '../duty/duty-state.js';
import type { Logger } from '../log/logger.js';
import type { PanelClient } from '../panel/panel-client.js';
import type { PlayerRegistry } from '../players/player-registry.js';
import type { BridgeRuntime, ServerPort } from '../server-port.js';
import type { KeyValueStore } from '../storage/key-value-store.js';
import { ProfileCache, type ProfileEntry } from './profile-cache.js';
import { ProfileService } from './profile-service.js';
import type { ProfileView } from './profile-updates.js';
import { wireProfileSubscribers } from './wire-profile-subscribers.js';

export interface ProfileDeliveryOptions {
  /** Without one (no panel), every profile is answered `not_configured`. */
  cache: ProfileCache | undefined;
  players: PlayerRegistry;
  port: Pick<ServerPort, 'emitClient'>;
  /** The player's duty, sent with each profile so the client's menu shows both as the server has them. */
  dutyState: (src: number) => DutyState;
  logger: Logger;
  messages: Messages;
}

/** What the profiles' subscribers need that exists only once the duty does. */
export interface ProfileConnections {
  /** Resource KVP, where profiles survive a restart. */
  store: KeyValueStore;
  /** `duty.submit({ kind: 'reconcile', src, profile })`. */
  reconcile: (src: number, profile: ProfileEntry) => void;
}

/**
 * The profiles the server holds, as the rest of the bridge asks for them. Every profile served goes out on
 * `profiles.profiles$`, whose subscribers (wired by `connect`) push it to the client, reconcile the duty with it and
 * keep the cache in KVP.
 */
export class ProfileDelivery {
  readonly profiles: ProfileService;
  /** Profiles held: for `bridge status`. */
  readonly cachedCount: () => number;

  constructor(private readonly options: ProfileDeliveryOptions) {
    const { cache, players, logger, messages } = options;
    this.profiles = new ProfileService(cache, players, logger, messages);
    this.cachedCount = () => cache?.size ?? 0;
  }

  /**
   * Subscribes the client push, the duty reconciliation and the KVP copy, which loads what the last run kept: call it
   * before anything can ask for a profile.
   */
  connect({ store, reconcile }: ProfileConnections): Subscription {
    const { cache, players, port, dutyState, logger } = this.options;
    return wireProfileSubscribers({
      profiles: this.profiles,
      cache,
      store,
      isConnected: (src) => players.get(src) !== undefined,
      emitClient: (event, src, ...args) => port.emitClient(event, src, ...args),
      sendDutyState: (src) => port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(dutyState(src))),
      reconcile,
      logger,
    });
  }

  /** Fetches (or takes from the cache) and sends a player's profile; `force` bypasses the cache. */
  send(src: number, force: boolean): Promise<ProfileView> {
    return this.profiles.serve(src, { force });
  }

  /** What /dutyrefresh does after its cooldown: fetch bypassing the cache, tell the client, check the duty. */
  refresh(src: number): Promise<ProfileView> {
    return this.profiles.serve(src, { force: true, checksDuty: true });
  }

  /**
   * The profile a duty change is checked against. A refetch also updates the player's menu, which showed the outdated
   * departments. Otherwise whatever profile is held is good enough: the panel checks the rank itself, and a refusal
   * comes back with `refetch`.
   */
  async forDuty(src: number, refetch: boolean): Promise<ProfileEntry | undefined> {
    return refetch ? (await this.send(src, true)).entry : await this.profiles.forDuty(src);
  }
}

export interface ConnectedProfilesOptions extends Omit<ProfileDeliveryOptions, 'cache'> {
  panel: PanelClient;
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  /** `Config.RefreshIntervalMs`: how long a profile is fresh. */
  ttlMs: number;
  /** With BRIDGE_REDIS_URL: profiles fetched once for the community. */
  community?: CommunityProfiles;
}

/** Profiles from the panel, cached for `ttlMs` (and kept in KVP across restarts once connected). */
export function connectProfiles({
  panel,
  runtime,
  ttlMs,
  community,
  ...options
}: ConnectedProfilesOptions): ProfileDelivery {
  const cache = new ProfileCache(panel, { ttlMs, now: runtime.now, wallNow: runtime.wallNow, community });
  return new ProfileDelivery({ ...options, cache });
}
