import { ChatIdSchema } from '../../shared/contract/index.js';
import * as z from '../../shared/zod-mini.js';
import { type KeptPlace, type SetAsideRecord, takeKeptRecords } from '../storage/kept-record.js';
import type { KeyValueStore } from '../storage/key-value-store.js';

// Unreadable records move to the aside prefix: kept for whoever wants to look, never read again.
const PLACE: KeptPlace = { prefix: 'open-duty:', asidePrefix: 'open-duty-set-aside:' };

const OpenDutySchema = z.object({
  chatId: ChatIdSchema,
  departmentId: z.number().check(z.int()),
  rankId: z.number().check(z.int()),
  /** When the duty began (wall clock, for the record only). */
  since: z.number(),
  /** The player's server id in the run that recorded it, for the log line. */
  serverId: z.number().check(z.int()),
});

export type OpenDuty = z.infer<typeof OpenDutySchema>;

export interface LeftOver {
  duties: OpenDuty[];
  /** Records that could not be read, already set aside, with the reason. */
  setAside: SetAsideRecord[];
}

const keyOf = (chatId: string) => `${PLACE.prefix}${chatId}`;

/**
 * Every duty the game has open at the panel, one KVP record per chat account (duty belongs to the account at the
 * panel, not to a server id), written as it changes. The store's writes are synced: a record must outlive a crash
 * of the process that wrote it. An orderly stop takes everyone off duty and so leaves the ledger empty; what is
 * found in it at start was left by a run that died without its stop.
 */
export class OpenDutyLedger {
  /** The session whose record each chat account's is, as written this run: going off duty reads nothing back. */
  private readonly writtenBy = new Map<string, number>();

  constructor(private readonly store: KeyValueStore) {}

  /** A player went on duty or changed rank. */
  opened(duty: OpenDuty): void {
    this.writtenBy.set(duty.chatId, duty.serverId);
    this.store.set(keyOf(duty.chatId), JSON.stringify(duty));
  }

  /** A player went off duty. Another session of the same account that holds the record keeps it. */
  closed(chatId: string, serverId: number): void {
    if (this.writtenBy.get(chatId) !== serverId) return;
    this.writtenBy.delete(chatId);
    this.store.delete(keyOf(chatId));
  }

  /** The records a previous run left; unreadable ones are set aside on the way, so they are reported only once. */
  leftOver(): LeftOver {
    const { records, setAside } = takeKeptRecords(this.store, PLACE, OpenDutySchema, (duty, key) =>
      keyOf(duty.chatId) === key ? undefined : 'the chat id does not match its key',
    );
    return { duties: records, setAside };
  }

  /** The duty of a previous run is taken care of (its `off` is kept in the outbox). */
  forget(chatId: string): void {
    this.store.delete(keyOf(chatId));
  }
}
