import type { PlayerRegistry } from '../kernel/index.js';
import type { ProfileRequestClass } from '../panel/index.js';
import { isMember, type ProfileCache } from './profile-cache.js';
import type { ProfileEntry } from './profile-entry.js';

export interface RefreshPolicyOptions {
  cache: ProfileCache;
  players: PlayerRegistry;
  /** A profile fetched in the background for an online player, to send to their client and check their duty. */
  onRefreshed: (src: number, entry: ProfileEntry) => void;
}

/**
 * When profiles are fetched again. A profile is refreshed when something needs it (the client asks for it, a player
 * joins) and it is past its TTL; only players on duty are polled (`on-duty-revalidation.ts`), through `refresh`.
 * The stale one is used meanwhile and the refresh waits in the background classes, department members before the
 * others, so however many players need one, refreshes only get the budget the interactive work leaves and never
 * more than the panel allows.
 */
export class RefreshPolicy {
  /** The background refresh of each chat id on its way, which every other asker shares. */
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(private readonly options: RefreshPolicyOptions) {}

  /**
   * Refreshes a stale profile in the background (once, however many ask meanwhile). `requestClass` when a player
   * waits for it: a refresh already on its way is joined and moved up to that class, never sent a second time.
   */
  revalidate(chatId: string, stale: ProfileEntry | undefined, requestClass?: ProfileRequestClass): void {
    if (requestClass && this.refreshing.has(chatId)) {
      // Not forced: the scheduler's single flight joins the request that is queued or in flight.
      void this.options.cache.get(chatId, { priority: requestClass });
      return;
    }
    const priority = requestClass ?? (isMember(stale) ? 'member-refresh' : 'other-refresh');
    // A copy another server of the community got while this one's went stale will do (one it missed while it was
    // down, say); none, and the panel is asked.
    void this.fetchOnce(chatId, { force: true, priority, communityFirst: true });
  }

  /**
   * Fetches a profile in the background at `priority` and tells its online players; resolves once that is done.
   * One refresh of a chat id at a time, however many ask meanwhile.
   */
  refresh(chatId: string, priority: ProfileRequestClass): Promise<void> {
    return this.fetchOnce(chatId, { force: true, priority });
  }

  /**
   * The panel answers again after an outage: players who joined meanwhile get the profile they could not, and
   * stale ones are refreshed, all through the scheduler at their usual classes.
   */
  recover(): void {
    const { cache, players } = this.options;
    for (const session of players.all()) {
      if (!session.chat.ok) continue;
      const { chatId } = session.chat;
      const entry = cache.peek(chatId);
      if (!entry) void this.fetchOnce(chatId, { priority: 'join' });
      else if (!cache.isFresh(chatId)) this.revalidate(chatId, entry);
    }
  }

  /**
   * Another server of the community got this account's profile from the panel again (/dutyrefresh, a role change,
   * its on-duty polling): a server that holds it takes the community's copy, and its online players get it and have
   * their duty checked against it, as after a refresh of its own. A server that does not hold it waits until it is
   * needed.
   */
  adopt(chatId: string): Promise<void> {
    const { cache, players } = this.options;
    const online = players.sessionsOf(chatId).length > 0;
    if (!online && !cache.peek(chatId)) return Promise.resolve();
    return cache.takeShared(chatId).then((entry) => {
      if (entry) this.tell(chatId, entry);
    });
  }

  /** Fetches a profile and tells its online players, unless a fetch of it is on its way already: that one is shared. */
  private fetchOnce(chatId: string, options: Parameters<ProfileCache['get']>[1]): Promise<void> {
    const running = this.refreshing.get(chatId);
    if (running) return running;
    const fetched = this.options.cache
      .get(chatId, options)
      .then((lookup) => {
        if (lookup.ok) this.tell(chatId, lookup.entry);
      })
      .finally(() => this.refreshing.delete(chatId));
    this.refreshing.set(chatId, fetched);
    return fetched;
  }

  private tell(chatId: string, entry: ProfileEntry): void {
    for (const session of this.options.players.sessionsOf(chatId)) this.options.onRefreshed(session.src, entry);
  }
}
