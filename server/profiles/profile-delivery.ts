import { Subject, type Subscription } from 'rxjs';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../shared/events.js';
import type { Messages } from '../../shared/locale.js';
import type { DutyState } from '../duty/duty-state.js';
import { snapshotOf } from '../duty/duty-state.js';
import type { Logger } from '../log/logger.js';
import type { PanelClient } from '../panel/panel-client.js';
import type { PlayerRegistry } from '../players/player-registry.js';
import type { BridgeRuntime, ServerPort } from '../server-port.js';
import type { KeyValueStore } from '../storage/key-value-store.js';
import { ProfileCache, type ProfileEntry } from './profile-cache.js';
import { ProfilePersistence } from './profile-persistence.js';
import { ProfileService, type ProfileView } from './profile-service.js';

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

/** A profile fresh from the panel that may end or change the player's duty. */
export interface ProfileUpdate {
  src: number;
  profile: ProfileEntry;
}

/**
 * The profile wiring: the profiles the server holds, and how they reach the players' clients. A profile refreshed in
 * the background (it was stale, or the panel is back after an outage) or by /dutyrefresh reaches the client and
 * comes out on `updates$`, where the duty reconciles with it.
 */
export class ProfileDelivery {
  readonly profiles: ProfileService;
  private readonly updates = new Subject<ProfileUpdate>();
  readonly updates$ = this.updates.asObservable();
  /** Profiles held: for `bridge status`. */
  readonly cachedCount: () => number;
  private readonly subscription: Subscription;

  constructor(private readonly options: ProfileDeliveryOptions) {
    const { cache, players, logger, messages } = options;
    this.profiles = new ProfileService(cache, players, logger, messages);
    this.cachedCount = () => cache?.size ?? 0;
    this.subscription = this.profiles.refreshed$.subscribe(({ src, view }) => {
      try {
        if (players.get(src)) this.deliver(src, view);
      } catch (error) {
        logger.error(`profile refresh failed: ${String(error)}`);
      }
    });
  }

  /** Fetches (or takes from the cache) and sends a player's profile; `force` bypasses the cache. */
  async send(src: number, force: boolean): Promise<ProfileView> {
    const view = await this.profiles.view(src, { force });
    if (this.options.players.get(src)) this.push(src, view);
    return view;
  }

  /** What /dutyrefresh does after its cooldown: fetch bypassing the cache, tell the client, check the duty. */
  async refresh(src: number): Promise<ProfileView> {
    const view = await this.send(src, true);
    this.update(src, view);
    return view;
  }

  /**
   * The profile a duty change is checked against. A refetch also updates the player's menu, which showed the outdated
   * departments. Otherwise whatever profile is held is good enough: the panel checks the rank itself, and a refusal
   * comes back with `refetch`.
   */
  async forDuty(src: number, refetch: boolean): Promise<ProfileEntry | undefined> {
    return refetch ? (await this.send(src, true)).entry : await this.profiles.forDuty(src);
  }

  stop(): void {
    this.subscription.unsubscribe();
  }

  private deliver(src: number, view: ProfileView): void {
    this.push(src, view);
    this.update(src, view);
  }

  private push(src: number, view: ProfileView): void {
    const { port, dutyState } = this.options;
    port.emitClient(PUBLIC_EVENTS.profile, src, view.payload);
    port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(dutyState(src)));
  }

  private update(src: number, view: ProfileView): void {
    if (view.entry && view.payload.ok) this.updates.next({ src, profile: view.entry });
  }
}

export interface ConnectedProfilesOptions extends Omit<ProfileDeliveryOptions, 'cache'> {
  panel: PanelClient;
  store: KeyValueStore;
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  /** `Config.RefreshIntervalMs`: how long a profile is fresh. */
  ttlMs: number;
}

/** Profiles from the panel, cached (and kept in KVP across restarts) for `ttlMs`. */
export function connectProfiles({
  panel,
  store,
  runtime,
  ttlMs,
  ...options
}: ConnectedProfilesOptions): ProfileDelivery {
  const cache = new ProfileCache(panel, {
    ttlMs,
    now: runtime.now,
    wallNow: runtime.wallNow,
    persistence: new ProfilePersistence(store),
  });
  const restored = cache.restore();
  if (restored > 0) options.logger.info(`${restored} player profile(s) kept from the last run`);
  return new ProfileDelivery({ ...options, cache });
}
