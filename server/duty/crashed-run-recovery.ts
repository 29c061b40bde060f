import { shiftOf } from '../community/duty-owner-api.js';
import type { Logger } from '../log/logger.js';
import type { DutyCall } from './duty-call.js';
import type { OpenDutyLedger } from './open-duty-ledger.js';
import type { Outbox } from './outbox.js';

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
