import type { Observable, Subscription } from 'rxjs';
import { ChatIdSchema } from '../../shared/contract/index.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { type KeptPlace, type SetAsideRecord, takeKeptRecords } from '../kernel/index.js';
import type { DutyCall } from './duty-call.js';
import type { HeldShiftEnd } from './duty-interpreter.js';
import { shiftOf } from './duty-model.js';
import { type DutyEffect, dutyEffect } from './effects.js';
import type { Outbox } from './outbox.js';

// The crash record: the ledger of the duties open at the panel, the effect that keeps it, and the start that ends
// what a crashed run left in it.

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

/** Keeps the open-duty ledger (what a crash leaves for the next start to end at the panel) as duties change. */
export const recordOpenDuties = (ledger: OpenDutyLedger, logger: Logger): DutyEffect =>
  dutyEffect('open duty record', logger, (change) => {
    const { kind, src, chatId, next } = change;
    // A new slug or name is not in the record.
    if (chatId === undefined || kind === 'renamed') return;
    const { onDuty, departmentId, rankId, since } = next;
    if (onDuty && departmentId !== null && rankId !== null && since !== null) {
      ledger.opened({ chatId, departmentId, rankId, since, serverId: src });
      // A held shift is still open at the panel: its record stays until it goes on or ends (closeEndedShifts).
    } else if (!onDuty && !(change.kind === 'off' && change.resumable)) ledger.closed(chatId, src);
  });

/** A held shift ended without its player (its `off` is in the outbox by then): its record goes. */
export const closeEndedShifts = (heldEnded$: Observable<HeldShiftEnd>, ledger: OpenDutyLedger): Subscription =>
  heldEnded$.subscribe(({ chatId, src }) => ledger.closed(chatId, src));

/**
 * At start, before any panel work: every duty a run that died without its stop left open becomes an `off` kept in
 * the outbox, so resume() sends it after whatever that run still had queued for the same account, and it is
 * persisted and retried like any other call, through an outage and the next restart. Each ledger record is
 * cleared only once its `off` is safely in the outbox. Returns how many duties were left open.
 *
 * In a community (`community`), each `off` is fenced by its shift: it goes only once Redis confirms that shift still
 * owns the account, never while Redis cannot say (docs/several-servers.md, "How an account's duty is fenced"). A duty
 * the player took on another server since, or that a peer ended already, is left alone with one line.
 */
export function endDutiesLeftOpen(
  ledger: OpenDutyLedger,
  outbox: Pick<Outbox, 'keep'>,
  logger: Logger,
  community = false,
): number {
  const { duties, setAside } = ledger.leftOver();
  for (const { key, movedTo, problem } of setAside) {
    logger.error(`the open duty record ${key} could not be read (${problem}); it is set aside as ${movedTo}`);
  }
  outbox.keep(
    duties.map(
      ({ chatId, departmentId, serverId, since }): DutyCall => ({
        action: 'off',
        body: { chatId, departmentId },
        ...(community ? { fence: { shift: shiftOf(serverId, since) } } : {}),
      }),
    ),
  );
  for (const duty of duties) ledger.forget(duty.chatId);
  if (duties.length > 0) {
    logger.info(
      community
        ? `the last run ended without stopping (a crash?) and left ${duties.length} duty(ies) open at the panel; each is ended once Redis confirms it is still this server's`
        : `the last run ended without stopping (a crash?) and left ${duties.length} duty(ies) open at the panel; they are ended now`,
    );
  }
  return duties.length;
}
