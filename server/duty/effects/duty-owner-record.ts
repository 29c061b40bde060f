import { type DutyOwners, shiftOf } from '../../community/duty-owner-api.js';
import type { Logger } from '../../log/logger.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/**
 * With a community (BRIDGE_REDIS_URL): the account's duty owner in Redis follows this server's duties. A duty that
 * starts claims the account for this server's shift (the panel took its `on`, or, in degraded mode `queue`, will); one
 * that ends lets the claim go here (its fenced `off`, if any, is already in the outbox and marks it in Redis).
 */
export const recordDutyOwners = (owners: Pick<DutyOwners, 'claim' | 'release'>, logger: Logger): DutyEffect =>
  dutyEffect('duty owner record', logger, ({ kind, src, chatId, previous, next }) => {
    if (chatId === undefined) return;
    if (kind === 'on' && next.since !== null && next.departmentId !== null) {
      owners.claim(chatId, shiftOf(src, next.since), next.departmentId);
    } else if (kind === 'off' && previous.since !== null) owners.release(chatId, shiftOf(src, previous.since));
  });
