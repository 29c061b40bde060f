// What dist/server.js sees of the community's duty owners (issue 25 item 3). Types and one tiny function: the Redis
// side is server/community/duty-owners.ts, in dist/redis.cjs.
import type { Observable } from 'rxjs';

/**
 * A shift of this server: the session and the moment its duty began. It is the same across a rank change or a
 * renamed department (the duty's `since` stays), new with every `on`, and readable from the open-duty ledger after a
 * crash (the record keeps both).
 */
export const shiftOf = (src: number, since: number): string => `${src}:${since}`;

/** Who holds a duty a crashed run left open, as Redis says now. */
export type LeftOpenOwner =
  /** This server's shift still holds the account's duty (now marked ended in Redis): its `off` is this server's. */
  | { kind: 'ours' }
  /** Another server (or a later shift) took the account's duty since: the panel's duty is theirs, left alone. */
  | { kind: 'taken'; server: string }
  /** Redis knows of no owner (lost, or never written) even after every server had time to write again. */
  | { kind: 'nobody' };

/**
 * The duty owner of each chat account across the community, kept in Redis under `<prefix>duty-owner:<chatId>`: the
 * server and its shift that the panel's duty belongs to. Every call is fire-and-forget or a Promise that rejects while
 * Redis is gone; none waits for a connection.
 */
export interface DutyOwners {
  /** This server's stable identity in the community (KVP, the same after a crash or restart). */
  readonly server: string;
  /** The panel's duty of the account is now this server's shift: written, and the other servers told (atomic). */
  claim(chatId: string, shift: string): void;
  /** This server's shift ended (its `off` is on its way): the owner record says so, if it is still this shift's. */
  release(chatId: string, shift: string): void;
  /** For crash recovery: who owns a shift the last run left open. Rejects while Redis does not answer. */
  leftOpen(chatId: string, shift: string): Promise<LeftOpenOwner>;
  /**
   * The other server that owns the account's duty, or has ended its shift of it (undefined: this server, or nobody).
   * For the calls a crashed run kept in its outbox. Rejects while Redis does not answer.
   */
  ownerElsewhere(chatId: string): Promise<string | undefined>;
  /**
   * Accounts another server took while this one held them: heard on the owners' channel, or found when Redis
   * answers again and this server writes again what it holds. This server ends its local duty, without an `off`.
   */
  readonly takenElsewhere$: Observable<string>;
  /** Whether Redis answers: its first answer or failure, then each change (crash recovery waits for true). */
  readonly up$: Observable<boolean>;
}
