import type { Logger } from '../../log/logger.js';
import type { OpenDutyLedger } from '../open-duty-ledger.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/** Keeps the open-duty ledger (what a crash leaves for the next start to end at the panel) as duties change. */
export const recordOpenDuties = (ledger: OpenDutyLedger, logger: Logger): DutyEffect =>
  dutyEffect('open duty record', logger, ({ kind, src, chatId, next }) => {
    // A new slug or name is not in the record.
    if (chatId === undefined || kind === 'renamed') return;
    const { onDuty, departmentId, rankId, since } = next;
    if (onDuty && departmentId !== null && rankId !== null && since !== null) {
      ledger.opened({ chatId, departmentId, rankId, since, serverId: src });
    } else if (!onDuty) ledger.closed(chatId, src);
  });
