import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import type { Logger, ServerPort } from '../../kernel/index.js';
import { snapshotOf } from '../duty-state.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/**
 * What the player's own client learns: the department's data on going on duty or a new rank (`deptData`), why the
 * duty ended (`offDuty`), the bridge's duty state for the client exports, and a notification of a new rank. A
 * player who dropped has no client left to tell.
 */
export const emitClientDutyEvents = (port: Pick<ServerPort, 'emitClient'>, logger: Logger): DutyEffect =>
  dutyEffect('client event', logger, (change) => {
    const { src, next } = change;
    if (change.kind === 'off') {
      if (change.reason === 'dropped') return;
      const departmentId = change.previous.departmentId;
      if (departmentId !== null) port.emitClient(PUBLIC_EVENTS.offDuty, src, { departmentId, reason: change.reason });
    } else {
      port.emitClient(PUBLIC_EVENTS.deptData, src, change.department);
    }
    port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(next));
    if (change.kind === 'rank') {
      port.emitClient(INTERNAL_EVENTS.notify, src, 'rank_changed', { rank: change.department.rank.name });
    }
  });
