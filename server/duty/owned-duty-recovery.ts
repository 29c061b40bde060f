import { filter, take } from 'rxjs';
import { type DutyOwners, shiftOf } from '../community/duty-owner-api.js';
import { REDIS_URL_CONVAR } from '../community/redis-convar.js';
import type { Logger } from '../kernel/index.js';
import type { OpenDuty, OpenDutyLedger } from './open-duty-ledger.js';
import type { Outbox } from './outbox.js';

export interface OwnedDutyRecoveryOptions {
  ledger: Pick<OpenDutyLedger, 'stillLeftOpen' | 'forget'>;
  outbox: Pick<Outbox, 'enqueue'>;
  owners: Pick<DutyOwners, 'leftOpen' | 'up$'>;
  logger: Logger;
}

/**
 * Crash recovery in a community (BRIDGE_REDIS_URL): a duty the last run left open is ended at the panel only while
 * this server's shift still owns the account in Redis; one another server took since is left alone. Its ledger
 * record stays in KVP until Redis has answered for it: while Redis is gone nothing is sent, since an `off` could end
 * another server's duty and a duty kept open a little longer is the lesser harm (the panel sees one `off` per shift,
 * whatever crashes). A record this run replaced (the account went on duty here again) needs no `off` at all. The
 * wait ends when the community's link closes (`up$` completes).
 */
export function endOwnedDutiesLeftOpen(duties: readonly OpenDuty[], options: OwnedDutyRecoveryOptions): void {
  const { ledger, outbox, owners, logger } = options;
  let pending = [...duties];
  let ended = 0;
  let toldWaiting = false;
  let running = false;

  const settle = async (duty: OpenDuty): Promise<boolean> => {
    if (!ledger.stillLeftOpen(duty)) return true;
    const owner = await owners.leftOpen(duty.chatId, shiftOf(duty.serverId, duty.since));
    if (!ledger.stillLeftOpen(duty)) return true;
    if (owner.kind === 'taken') {
      logger.info(
        `the duty of chat account ${duty.chatId} the last run left open was taken by server ${owner.server} since; it is left alone`,
      );
    } else {
      outbox.enqueue({ action: 'off', body: { chatId: duty.chatId, departmentId: duty.departmentId } });
      ended += 1;
    }
    ledger.forget(duty.chatId);
    return true;
  };

  const attempt = async () => {
    if (running || pending.length === 0) return;
    running = true;
    const left: OpenDuty[] = [];
    for (const duty of pending) {
      const done = await settle(duty).catch(() => false);
      if (!done) left.push(duty);
    }
    pending = left;
    running = false;
    if (left.length > 0) return waiting();
    if (ended > 0) {
      logger.info(
        `the last run ended without stopping (a crash?) and left ${ended} duty(ies) open at the panel that this server still owned; they are ended now`,
      );
      ended = 0;
    }
  };

  const waiting = () => {
    if (toldWaiting) return;
    toldWaiting = true;
    logger.warn(
      `the last run ended without stopping (a crash?) and left ${pending.length} duty(ies) open; they are kept until Redis (${REDIS_URL_CONVAR}) answers, so that only those this server still owns are ended`,
    );
  };

  if (pending.length === 0) return;
  const first = owners.up$.pipe(take(1)).subscribe((up) => {
    if (!up) waiting();
  });
  const ups = owners.up$.pipe(filter((up) => up)).subscribe(() => {
    void attempt();
  });
  ups.add(first);
}
