import type { DutyOwners } from '../community/duty-owner-api.js';
import type { Logger } from '../kernel/index.js';
import type { OpenDutyLedger } from './open-duty-ledger.js';
import type { Outbox } from './outbox.js';
import { endOwnedDutiesLeftOpen } from './owned-duty-recovery.js';

/**
 * At start, before any panel work: every duty a run that died without its stop left open becomes an `off` kept in
 * the outbox, so resume() sends it after whatever that run still had queued for the same account, and it is
 * persisted and retried like any other call, through an outage and the next restart. Each ledger record is
 * cleared only once its `off` is safely in the outbox. Returns how many duties were left open.
 *
 * In a community (`owners`), only the duties this server still owns are ended, once Redis has said so
 * (owned-duty-recovery.ts); that wait ends with the community's link.
 */
export function endDutiesLeftOpen(
  ledger: OpenDutyLedger,
  outbox: Pick<Outbox, 'keep' | 'enqueue'>,
  logger: Logger,
  owners?: Pick<DutyOwners, 'leftOpen' | 'up$'>,
): number {
  const { duties, setAside } = ledger.leftOver();
  for (const { key, movedTo, problem } of setAside) {
    logger.error(`the open duty record ${key} could not be read (${problem}); it is set aside as ${movedTo}`);
  }
  if (owners) {
    endOwnedDutiesLeftOpen(duties, { ledger, outbox, owners, logger });
    return duties.length;
  }
  outbox.keep(duties.map(({ chatId, departmentId }) => ({ action: 'off', body: { chatId, departmentId } })));
  for (const duty of duties) ledger.forget(duty.chatId);
  if (duties.length > 0) {
    logger.info(
      `the last run ended without stopping (a crash?) and left ${duties.length} duty(ies) open at the panel; they are ended now`,
    );
  }
  return duties.length;
}
