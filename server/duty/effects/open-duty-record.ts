import type { Observable, Subscription } from 'rxjs';
import type { Logger } from '../../log/logger.js';
import type { HeldShiftEnd } from '../duty-interpreter.js';
import type { OpenDutyLedger } from '../open-duty-ledger.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

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
