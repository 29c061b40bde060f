import { PUBLIC_EVENTS } from '../../../shared/events.js';
import type { Logger } from '../../log/logger.js';
import type { ServerPort } from '../../server-port.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/** The public server events other resources listen to: `bridge:server:playerOnDuty`, `…OffDuty`, `…RankChanged`. */
export const emitServerDutyEvents = (port: Pick<ServerPort, 'emitLocal'>, logger: Logger): DutyEffect =>
  dutyEffect('server event', logger, (change) => {
    const { src, next } = change;
    if (change.kind === 'on') port.emitLocal(PUBLIC_EVENTS.playerOnDuty, src, next.departmentId, next.rankId);
    else if (change.kind === 'rank')
      port.emitLocal(PUBLIC_EVENTS.playerRankChanged, src, next.departmentId, next.rankId);
    else port.emitLocal(PUBLIC_EVENTS.playerOffDuty, src);
  });
