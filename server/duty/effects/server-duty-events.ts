import { PUBLIC_EVENTS } from '../../../shared/events.js';
import type { Logger } from '../../log/logger.js';
import type { ServerPort } from '../../server-port.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/**
 * The public server events other resources listen to: `bridge:server:playerOnDuty`, `…OffDuty`, `…RankChanged` and
 * `…DepartmentRenamed`. A rename has its own event rather than `…RankChanged`: the rank did not change, and a
 * listener that keys anything by slug needs the old and the new one. A new rank and a new slug at once fire both.
 */
export const emitServerDutyEvents = (port: Pick<ServerPort, 'emitLocal'>, logger: Logger): DutyEffect =>
  dutyEffect('server event', logger, (change) => {
    const { src, previous, next } = change;
    if (change.kind === 'on') {
      port.emitLocal(
        PUBLIC_EVENTS.playerOnDuty,
        src,
        next.departmentId,
        next.rankId,
        change.department.resumed === true,
      );
    } else if (change.kind === 'off') {
      port.emitLocal(PUBLIC_EVENTS.playerOffDuty, src, change.reason, change.resumable === true);
    } else {
      if (change.kind === 'rank') port.emitLocal(PUBLIC_EVENTS.playerRankChanged, src, next.departmentId, next.rankId);
      if (change.kind === 'renamed' || next.departmentSlug !== previous.departmentSlug) {
        const { departmentId, departmentSlug } = next;
        port.emitLocal(
          PUBLIC_EVENTS.playerDepartmentRenamed,
          src,
          departmentId,
          departmentSlug,
          previous.departmentSlug,
        );
      }
    }
  });
