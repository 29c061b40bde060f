import { filter, merge, type Observable, Subject, Subscription } from 'rxjs';
import type { DepartmentSummary, ProfilePayload } from '../../shared/events.js';
import { ENGLISH, type Messages } from '../../shared/locale.js';
import type { Logger, PlayerRegistry } from '../kernel/index.js';
import { type PanelFailure, type ProfileRequestClass, reportTokenRefused } from '../panel/index.js';
import type {
  CommunityProfiles,
  ProfileEntry,
  ProfileServed,
  ProfileStatus,
  ProfileUpdate,
  ProfileView,
} from './profile.js';
import type { ProfileCache } from './profile-cache.js';
import { RefreshPolicy } from './refresh-policy.js';

export interface ServeOptions {
  /** Bypass the cache (/dutyrefresh, the duty service's refetch after a refusal). */
  force?: boolean;
  /** The player's duty is reconciled with what arrives. */
  checksDuty?: boolean;
}

export interface ViewOptions {
  /** Bypass the cache (/dutyrefresh). */
  force?: boolean;
  /** The class a fetch waits in when there is no profile at all. */
  priority?: ProfileRequestClass;
}

const summaries = (entry: Extract<ProfileEntry, { kind: 'found' }>): DepartmentSummary[] =>
  entry.departments.map(({ id, slug, name, rank }) => ({ id, slug, name, rank }));

/** The profile the game sees; its `message` is the owner's wording (`Config.Locale`), English by default. */
export const payloadOf = (entry: ProfileEntry, messages: Messages = ENGLISH): ProfilePayload =>
  entry.kind === 'found'
    ? { ok: true, chatId: entry.chatId, departments: summaries(entry), fetchedAt: entry.fetchedAt }
    : { ok: false, error: 'not_registered', message: messages.not_registered };

/**
 * The profiles the server holds, as the rest of the bridge asks for them: turns a player's identity and the panel's
 * answer into the profile the game sees, with a reason when it fails. Every profile served goes out on `profiles$`,
 * whose subscribers (`profile-subscribers.ts`, wired in the composition root) push it to the client, reconcile the duty with
 * it and keep the cache in KVP. Without a cache (no panel), every profile is answered `not_configured`.
 */
export class Profiles {
  /**
   * Every chat account's profile as it is held, dropped and served, in order: what the client push, the duty
   * reconciliation and the KVP copy subscribe to (`profile-subscribers.ts`).
   */
  readonly profiles$: Observable<ProfileUpdate>;
  private readonly served$ = new Subject<ProfileServed>();
  private readonly policy: RefreshPolicy | undefined;

  constructor(
    private readonly cache: ProfileCache | undefined,
    private readonly players: PlayerRegistry,
    private readonly logger: Logger,
    private readonly messages: Messages = ENGLISH,
  ) {
    this.policy = cache
      ? new RefreshPolicy({
          cache,
          players,
          onRefreshed: (src, entry) => this.serveEntry(src, entry, 'fresh'),
        })
      : undefined;
    this.profiles$ = cache ? merge(cache.changes$, this.served$) : this.served$;
  }

  /** Profiles held: for `bridge status`. */
  cachedCount(): number {
    return this.cache?.size ?? 0;
  }

  /** One chat account's updates: its profile held, dropped, and served to each of its sessions. */
  profile$(chatId: string): Observable<ProfileUpdate> {
    return this.profiles$.pipe(filter((update) => update.chatId === chatId));
  }

  /**
   * The profile the game sees, sent to the player's client (while they are connected) through `profiles$`.
   * `checksDuty`: their duty is reconciled with it too (/dutyrefresh).
   */
  async serve(src: number, { force = false, checksDuty = false }: ServeOptions = {}): Promise<ProfileView> {
    const chatId = this.players.chatId(src);
    const { view, status } = await this.lookup(src, { force });
    this.served$.next({ kind: 'served', src, chatId, status, view, checksDuty });
    return view;
  }

  /**
   * The profile the game sees. A fresh one from the cache; a stale one at once, refreshed in the background; none:
   * fetched at `priority`, the stale one (if any) when the panel cannot be asked. Served to nobody: for the lookups no
   * client waits for (a join warming the cache, the duty check); what it fetches is still held on `profiles$`.
   */
  async view(src: number, options: ViewOptions = {}): Promise<ProfileView> {
    return (await this.lookup(src, options)).view;
  }

  private async lookup(
    src: number,
    { force = false, priority = 'waiting' }: ViewOptions,
  ): Promise<{ view: ProfileView; status: ProfileStatus }> {
    const session = this.players.get(src);
    if (!this.cache) {
      const payload: ProfilePayload = { ok: false, error: 'not_configured', message: this.messages.not_configured };
      return { view: { payload, entry: undefined }, status: 'none' };
    }
    if (!session?.chat.ok) {
      const malformed = session?.chat.ok === false && session.chat.reason === 'malformed';
      const payload: ProfilePayload = {
        ok: false,
        error: malformed ? 'malformed_identifier' : 'no_identifier',
        message: malformed ? this.messages.malformed_identifier : this.messages.no_identifier,
      };
      return { view: { payload, entry: undefined }, status: 'none' };
    }
    const { chatId } = session.chat;
    const known = force ? undefined : this.cache.peek(chatId);
    if (known && !this.cache.isFresh(chatId)) {
      this.policy?.revalidate(chatId, known);
      const view = { payload: payloadOf(known, this.messages), entry: known, revalidating: true };
      return { view, status: 'revalidating' };
    }
    const lookup = await this.cache.get(chatId, { force, priority });
    if (lookup.ok) {
      this.logger.forget('panel-unreachable');
      // Held and within its TTL, the cache answered without asking the panel.
      const status = known ? 'cached' : 'fresh';
      return { view: { payload: payloadOf(lookup.entry, this.messages), entry: lookup.entry }, status };
    }
    this.report(lookup.failure);
    if (lookup.stale && lookup.failure.kind !== 'unauthorized') {
      const view = { payload: payloadOf(lookup.stale, this.messages), entry: lookup.stale, stale: true };
      return { view, status: 'stale' };
    }
    const unauthorized = lookup.failure.kind === 'unauthorized';
    const payload: ProfilePayload = {
      ok: false,
      error: unauthorized ? 'unauthorized' : 'panel_unavailable',
      message: unauthorized ? this.messages.unauthorized : this.messages.panel_unavailable_profile,
    };
    return { view: { payload, entry: undefined }, status: 'none' };
  }

  /** What /dutyrefresh and `RefreshPlayer` do: fetch bypassing the cache, tell the client, check the duty. */
  refresh(src: number): Promise<ProfileView> {
    return this.serve(src, { force: true, checksDuty: true });
  }

  /**
   * The profile a duty change is checked against: whatever is held, fresh or stale, without a refresh (the panel
   * checks the rank itself and a refusal comes back with `refetch`); fetched only when nothing is held. A `refetch`
   * bypasses the cache and also updates the player's menu, which showed the outdated departments.
   */
  async forDuty(src: number, refetch = false): Promise<ProfileEntry | undefined> {
    if (refetch) return (await this.serve(src, { force: true })).entry;
    return this.cached(src) ?? (await this.view(src)).entry;
  }

  /** The entry the bridge holds for a player without fetching, fresh or stale. */
  cached(src: number): ProfileEntry | undefined {
    const chatId = this.players.chatId(src);
    return chatId === undefined ? undefined : this.cache?.peek(chatId);
  }

  /**
   * A player's menu read a profile older than the refresh interval on their client (stale-while-revalidate): it is
   * fetched again in the class of a waiting player and arrives on `profiles$`, like a background refresh, so it
   * reaches the client and reconciles the duty the same way. A profile still fresh here is sent again as it is,
   * without a request: the client's copy is old, the bridge's is not. The panel's answer that was no profile, within
   * its TTL, is not asked again: the same answer would come back.
   */
  revalidate(src: number): void {
    const chatId = this.players.chatId(src);
    if (!this.cache || !this.policy || chatId === undefined) return;
    const known = this.cache.peek(chatId);
    if (this.cache.isFresh(chatId)) {
      if (known) this.serveEntry(src, known, 'cached');
      return;
    }
    this.policy.revalidate(chatId, known, 'waiting');
  }

  /**
   * Fetches a chat account's profile in the background at `priority`; its online players get it on `profiles$`.
   * Shares a refresh already on its way. Resolves once done, whatever the panel answered.
   */
  refreshInBackground(chatId: string, priority: ProfileRequestClass): Promise<void> {
    return this.policy?.refresh(chatId, priority) ?? Promise.resolve();
  }

  /** How long the profile held for a chat account stays within its TTL: 0 when it is stale or missing. */
  freshForMs(chatId: string): number {
    return this.cache?.freshForMs(chatId) ?? 0;
  }

  /**
   * Another server of the community got this account's profile from the panel again: held here, it is taken from
   * the community's copy and served to its online players, their duty checked against it. Resolves once done.
   */
  renewedElsewhere(chatId: string): Promise<void> {
    return this.policy?.adopt(chatId) ?? Promise.resolve();
  }

  /** Redis answers (again, perhaps restarted empty): the profiles fresh here for online players are offered again. */
  offerToCommunity(): void {
    if (!this.cache) return;
    for (const session of this.players.all()) {
      if (session.chat.ok) this.cache.offerToCommunity(session.chat.chatId);
    }
  }

  /** The panel answers again: every online player without a profile gets one, stale ones are refreshed. */
  recover(): void {
    this.policy?.recover();
  }

  private serveEntry(src: number, entry: ProfileEntry, status: ProfileStatus): void {
    const view = { payload: payloadOf(entry, this.messages), entry };
    this.served$.next({ kind: 'served', src, chatId: entry.chatId, status, view, checksDuty: true });
  }

  // Owners need to hear about a broken token or a dead panel once, not once per player.
  private report(failure: PanelFailure): void {
    if (failure.kind === 'unauthorized') {
      reportTokenRefused(this.logger);
    } else {
      this.logger.once('panel-unreachable', 'warn', `the panel could not be asked for profiles: ${failure.message}`);
    }
  }
}

/**
 * With BRIDGE_REDIS_URL: a profile another server got from the panel again reaches this server's copy and players
 * (their duty checked against it), and when Redis answers (again, perhaps restarted empty) this server offers the
 * profiles it holds fresh for its players. The community's copy is read before the panel by the cache itself.
 */
export function shareProfilesWithCommunity(
  community: CommunityProfiles,
  profiles: Pick<Profiles, 'renewedElsewhere' | 'offerToCommunity'>,
  logger: Logger,
): Subscription {
  const subscription = new Subscription();
  subscription.add(
    community.renewed$.subscribe((chatId) => {
      profiles.renewedElsewhere(chatId).catch((error: unknown) => {
        logger.error(`a profile renewed by another server could not be taken: ${String(error)}`);
      });
    }),
  );
  subscription.add(community.connected$.subscribe(() => profiles.offerToCommunity()));
  return subscription;
}
