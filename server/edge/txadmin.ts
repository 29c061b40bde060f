// txAdmin's events as its monitor resource fires them, read from tabarra/txAdmin v8.0.1 (d8c5515b): core builds each
// payload (core/modules/FxRunner/index.ts killServer, core/modules/FxScheduler.ts, core/routes/player/actions.ts
// handleKick and handleBan, core/routes/fxserver/commands.ts kick_all), sends it as JSON through the server's console
// (`txaEvent`), and resource/sv_main.lua fires `txAdmin:events:<name>` with the decoded table. What reaches a JS
// handler went through Lua's json.decode and msgpack, so it is read tolerantly: a number may come as a numeric string,
// and the field names of older versions are read too (ox_lib 3.39 still reads playerWarned's `target`, which v7.3
// renamed `targetNetId`; playerBanned's `target` became `targetNetId` and `targetIds` in v5.0). Anything unreadable
// reads as missing, never as a throw.
import type { Observable, Subscription } from 'rxjs';
import { INTERNAL_EVENTS } from '../../shared/events.js';
import type { Duty } from '../duty/index.js';
import type { Logger, ServerPort, TxAdminEvent } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';

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

/** The resource txAdmin runs as (the `txAdmin` name only aliases it for exports). */
export const TXADMIN_RESOURCE = 'monitor';

/** The events the bridge reads. */
export const TXADMIN_EVENTS = ['serverShuttingDown', 'scheduledRestart', 'playerKicked', 'playerBanned'] as const;

/** txConfig.server.shutdownNoticeDelayMs's default: the delay a notice without a readable one is given. */
export const TXADMIN_DEFAULT_DELAY_MS = 5000;

type Fields = Record<string, unknown>;

const fieldsOf = (data: unknown): Fields => (data !== null && typeof data === 'object' ? (data as Fields) : {});

/** A whole number, or a string of one. */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/** serverShuttingDown `{ delay, author, message }`: the milliseconds until txAdmin kills the process. */
export const shutdownDelayOf = (data: unknown): number => {
  const delay = wholeNumber(fieldsOf(data).delay);
  return delay !== undefined && delay >= 0 ? delay : TXADMIN_DEFAULT_DELAY_MS;
};

/** scheduledRestart `{ secondsRemaining, translatedMessage }`. */
export const secondsRemainingOf = (data: unknown): number | undefined => {
  const seconds = wholeNumber(fieldsOf(data).secondsRemaining);
  return seconds !== undefined && seconds >= 0 ? seconds : undefined;
};

/** playerKicked `{ target, author, reason, dropMessage }`: the player kicked, or everyone (target -1, since v8.0). */
export function kickTargetOf(data: unknown): number | 'everyone' | undefined {
  const fields = fieldsOf(data);
  const target = wholeNumber(fields.target ?? fields.targetNetId);
  if (target === -1) return 'everyone';
  return target !== undefined && target > 0 ? target : undefined;
}

/**
 * playerBanned: the player it names (`targetNetId`, `target` before v5.0) and the identifiers banned (`targetIds`):
 * txAdmin's monitor drops every connected player who has one of them.
 */
export function banTargetsOf(data: unknown): { netId: number | undefined; identifiers: string[] } {
  const fields = fieldsOf(data);
  const netId = wholeNumber(fields.targetNetId ?? fields.target);
  const ids = Array.isArray(fields.targetIds) ? fields.targetIds : [];
  return {
    netId: netId !== undefined && netId > 0 ? netId : undefined,
    identifiers: ids.filter((id): id is string => typeof id === 'string'),
  };
}

/** How long before a scheduled restart players on duty are told, in seconds: 5 minutes, then 1 minute. */
const NOTICES_AT_S = [300, 60] as const;

/**
 * Which of txAdmin's restart warnings (at 30, 15, 10, 5, 4, 3, 2 and 1 minutes, FxScheduler's scheduleWarnings) the
 * players on duty hear of: the first at or below each point of NOTICES_AT_S, once per restart. A bridge that started
 * late hears the next warning instead, once. A warning further away than the last one heard is a new restart.
 */
export class RestartNotices {
  private told = new Set<number>();
  private lastHeardS: number | undefined;

  /** A warning, `secondsRemaining` before the restart: whether the players on duty are told now. */
  heard(secondsRemaining: number): boolean {
    if (this.lastHeardS === undefined || secondsRemaining > this.lastHeardS) this.told = new Set();
    this.lastHeardS = secondsRemaining;
    let due = false;
    for (const at of NOTICES_AT_S) {
      if (secondsRemaining > at || this.told.has(at)) continue;
      this.told.add(at);
      due = true;
    }
    return due;
  }
}
