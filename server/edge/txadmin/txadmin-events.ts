import type { Observable, Subscription } from 'rxjs';
import { INTERNAL_EVENTS } from '../../../shared/events.js';
import type { Duty } from '../../duty/index.js';
import type { Logger, ServerPort, TxAdminEvent } from '../../kernel/index.js';
import { errorText } from '../../kernel/index.js';
import { RestartNotices } from './restart-notices.js';
import { banTargetsOf, kickTargetOf, secondsRemainingOf, shutdownDelayOf } from './txadmin-payloads.js';

export interface TxAdminFollowing {
  events$: Observable<TxAdminEvent>;
  duty: Pick<Duty, 'endAll' | 'submit' | 'onDutyPlayers'>;
  port: Pick<ServerPort, 'connectedPlayers' | 'playerIdentifiers' | 'emitClient'>;
  /** Config.RestartNotice. */
  restartNotice: boolean;
  logger: Logger;
}

/**
 * What txAdmin does to the server, as duty sees it. Its shutdown notice ends every shift at once (`server_shutdown`),
 * so the `off` calls go out, in the duty class, while the process still runs: txAdmin kills it after `delay` without
 * onResourceStop, and an `off` still on its way then is kept in KVP and sent by the next start. Kicking everyone is
 * the same. A kick or a ban ends the player's duty before txAdmin drops them, with that reason. Its scheduled
 * restart warnings tell the players on duty, 5 minutes and 1 minute before, that their shift ends then.
 */
export function followTxAdmin({ events$, duty, port, restartNotice, logger }: TxAdminFollowing): Subscription {
  const notices = new RestartNotices();

  const shutdown = (what: string) => {
    const shifts = duty.onDutyPlayers().length;
    duty.endAll('server_shutdown');
    logger.info(`${what}: ${shifts} duty(ies) ended, their off calls go to the panel first`);
  };

  const handle = ({ name, data }: TxAdminEvent) => {
    if (name === 'serverShuttingDown') {
      shutdown(`txAdmin stops the server in ${shutdownDelayOf(data)} ms`);
    } else if (name === 'scheduledRestart') {
      const seconds = secondsRemainingOf(data);
      if (!restartNotice || seconds === undefined || !notices.heard(seconds)) return;
      const minutes = Math.max(1, Math.round(seconds / 60));
      for (const [src] of duty.onDutyPlayers())
        port.emitClient(INTERNAL_EVENTS.notify, src, 'restart_notice', { minutes });
    } else if (name === 'playerKicked') {
      const target = kickTargetOf(data);
      if (target === 'everyone') shutdown('txAdmin kicks everyone');
      else if (target !== undefined) duty.submit({ kind: 'off', src: target, reason: 'kicked' });
    } else if (name === 'playerBanned') {
      const { netId, identifiers } = banTargetsOf(data);
      const banned = new Set(identifiers);
      for (const src of port.connectedPlayers()) {
        if (src === netId || port.playerIdentifiers(src).some((id) => banned.has(id))) {
          duty.submit({ kind: 'off', src, reason: 'banned' });
        }
      }
    }
  };

  return events$.subscribe((event) => {
    try {
      handle(event);
    } catch (error) {
      logger.error(`txAdmin's ${event.name} event could not be handled: ${errorText(error)}`);
    }
  });
}
