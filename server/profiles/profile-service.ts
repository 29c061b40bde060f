import { Subject } from 'rxjs';
import type { DepartmentSummary, ProfilePayload } from '../../shared/events.js';
import { ENGLISH, type Messages } from '../../shared/locale.js';
import type { Logger } from '../log/logger.js';
import type { PanelFailure } from '../panel/panel-result.js';
import type { ProfileRequestClass } from '../panel/scheduling/request-classes.js';
import { reportTokenRefused } from '../panel/token-refused.js';
import type { PlayerRegistry } from '../players/player-registry.js';
import type { ProfileCache, ProfileEntry } from './profile-cache.js';
import { RefreshPolicy } from './refresh-policy.js';

export interface ProfileView {
  payload: ProfilePayload;
  /** The entry the payload was made from, fresh or stale; absent when there is none. */
  entry: ProfileEntry | undefined;
  /** The panel could not be asked: the payload is the last profile known, not a fresh one. */
  stale?: boolean;
  /** The profile is past its TTL and a refresh is on its way (it arrives on `refreshed$`). */
  revalidating?: boolean;
}

/** A profile refreshed in the background for an online player. */
export interface RefreshedProfile {
  src: number;
  view: ProfileView;
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

/** Turns a player's identity and the panel's answer into the profile the game sees, with a reason when it fails. */
export class ProfileService {
  readonly refreshed$ = new Subject<RefreshedProfile>();
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
          onRefreshed: (src, entry) =>
            this.refreshed$.next({ src, view: { payload: payloadOf(entry, this.messages), entry } }),
        })
      : undefined;
  }

  /**
   * The profile the game sees. A fresh one from the cache; a stale one at once, refreshed in the background; none:
   * fetched at `priority`, the stale one (if any) when the panel cannot be asked.
   */
  async view(src: number, { force = false, priority = 'waiting' }: ViewOptions = {}): Promise<ProfileView> {
    const session = this.players.get(src);
    if (!this.cache) {
      return {
        payload: { ok: false, error: 'not_configured', message: this.messages.not_configured },
        entry: undefined,
      };
    }
    if (!session?.chat.ok) {
      const malformed = session?.chat.ok === false && session.chat.reason === 'malformed';
      return {
        payload: {
          ok: false,
          error: malformed ? 'malformed_identifier' : 'no_identifier',
          message: malformed ? this.messages.malformed_identifier : this.messages.no_identifier,
        },
        entry: undefined,
      };
    }
    const { chatId } = session.chat;
    const known = force ? undefined : this.cache.peek(chatId);
    if (known && !this.cache.isFresh(chatId)) {
      this.policy?.revalidate(chatId, known);
      return { payload: payloadOf(known, this.messages), entry: known, revalidating: true };
    }
    const lookup = await this.cache.get(chatId, { force, priority });
    if (lookup.ok) {
      this.logger.forget('panel-unreachable');
      return { payload: payloadOf(lookup.entry, this.messages), entry: lookup.entry };
    }
    this.report(lookup.failure);
    if (lookup.stale && lookup.failure.kind !== 'unauthorized') {
      return { payload: payloadOf(lookup.stale, this.messages), entry: lookup.stale, stale: true };
    }
    const unauthorized = lookup.failure.kind === 'unauthorized';
    return {
      payload: {
        ok: false,
        error: unauthorized ? 'unauthorized' : 'panel_unavailable',
        message: unauthorized ? this.messages.unauthorized : this.messages.panel_unavailable_profile,
      },
      entry: undefined,
    };
  }

  /**
   * The profile a duty change is checked against: whatever is held, fresh or stale, without a refresh (the panel
   * checks the rank itself and a refusal fetches the profile again); fetched only when nothing is held.
   */
  async forDuty(src: number): Promise<ProfileEntry | undefined> {
    return this.cached(src) ?? (await this.view(src)).entry;
  }

  /** The entry the bridge holds for a player without fetching, fresh or stale. */
  cached(src: number): ProfileEntry | undefined {
    const chatId = this.players.chatId(src);
    return chatId === undefined ? undefined : this.cache?.peek(chatId);
  }

  /**
   * A player's menu read a profile older than the refresh interval on their client (stale-while-revalidate): it is
   * fetched again in the class of a waiting player and arrives on `refreshed$`, like a background refresh, so it
   * reaches the client and reconciles the duty the same way. A profile still fresh here is sent again as it is,
   * without a request: the client's copy is old, the bridge's is not. An unreadable answer within its TTL is not
   * asked again: the same answer would come back.
   */
  revalidate(src: number): void {
    const chatId = this.players.chatId(src);
    if (!this.cache || !this.policy || chatId === undefined) return;
    const known = this.cache.peek(chatId);
    if (this.cache.isFresh(chatId)) {
      if (known) this.refreshed$.next({ src, view: { payload: payloadOf(known, this.messages), entry: known } });
      return;
    }
    this.policy.revalidate(chatId, known, 'waiting');
  }

  /**
   * Fetches a chat account's profile in the background at `priority`; its online players get it on `refreshed$`.
   * Shares a refresh already on its way. Resolves once done, whatever the panel answered.
   */
  refreshInBackground(chatId: string, priority: ProfileRequestClass): Promise<void> {
    return this.policy?.refresh(chatId, priority) ?? Promise.resolve();
  }

  /** How long the profile held for a chat account stays within its TTL: 0 when it is stale or missing. */
  freshForMs(chatId: string): number {
    return this.cache?.freshForMs(chatId) ?? 0;
  }

  /** The panel answers again: every online player without a profile gets one, stale ones are refreshed. */
  recover(): void {
    this.policy?.recover();
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
