import { type DutyEffect, dutyEffect, shiftOf } from '../duty/index.js';
import type { Logger } from '../kernel/index.js';
import type { DutyOwners } from './community.js';

/**
 * With a community (BRIDGE_REDIS_URL): the account's duty owner in Redis follows this server's duties. A duty that
 * starts claims the account for this server's shift (the panel took its `on`, or, in degraded mode `queue`, will); one
 * that ends lets the claim go here (its fenced `off`, if any, is already in the outbox and marks it in Redis). A shift
 * held after a crash (Config.ResumeWindowMs) is still open at the panel: it keeps its claim, and its fence, until it
 * ends (releaseEndedShifts), so another server's claim meanwhile is heard as taking it.
 */
export const recordDutyOwners = (
  owners: Pick<DutyOwners, 'claim' | 'release' | 'hold'>,
  logger: Logger,
  resumeWindowMs: number,
): DutyEffect =>
  dutyEffect('duty owner record', logger, (change) => {
    const { kind, src, chatId, previous, next } = change;
    if (chatId === undefined) return;
    if (kind === 'on' && next.since !== null && next.departmentId !== null) {
      owners.claim(chatId, shiftOf(src, next.since), next.departmentId);
    } else if (kind === 'off' && previous.since !== null) {
      const shift = shiftOf(src, previous.since);
      // A held shift's record says so, and until when, for a server where the account joins to take it over.
      if (!change.resumable) owners.release(chatId, shift);
      else if (previous.rankId !== null) {
        owners.hold(chatId, shift, { windowMs: resumeWindowMs, since: previous.since, rankId: previous.rankId });
      }
    }
  });
