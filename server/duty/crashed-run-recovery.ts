import type { Logger } from '../log/logger.js';
import type { OpenDutyLedger } from './open-duty-ledger.js';
import type { Outbox } from './outbox.js';

/**
 * At start, before any panel work: every duty a run that died without its stop left open becomes an `off` kept in
 * the outbox, so resume() sends it after whatever that run still had queued for the same account, and it is
 * persisted and retried like any other call, through an outage and the next restart. Each ledger record is
 * cleared only once its `off` is safely in the outbox. Returns how many duties were left open.
 */
export function endDutiesLeftOpen(ledger: OpenDutyLedger, outbox: Pick<Outbox, 'keep'>, logger: Logger): number {
  const { duties, setAside } = ledger.leftOver();
  for (const { key, movedTo, problem } of setAside) {
    logger.error(`the open duty record ${key} could not be read (${problem}); it is set aside as ${movedTo}`);
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
