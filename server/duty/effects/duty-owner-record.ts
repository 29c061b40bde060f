import type { Observable, Subscription } from 'rxjs';
import { type DutyOwners, shiftOf } from '../../community/duty-owner-api.js';
import type { Logger } from '../../kernel/index.js';
import type { HeldShiftEnd } from '../duty-interpreter.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/**
 * With a community (BRIDGE_REDIS_URL): the account's duty owner in Redis follows this server's duties. A duty that
 * starts makes this server's shift the owner (the panel took its `on`, or, in degraded mode `queue`, will); one that
 * ends marks the shift ended, if it is still the owner (a session replaced by another one owns nothing by then). A
 * shift held after a crash (Config.ResumeWindowMs) is still open at the panel: it stays this server's until it ends
 * (releaseEndedShifts), so another server's `on` meanwhile is heard as taking it.
 */
export const recordDutyOwners = (owners: Pick<DutyOwners, 'claim' | 'release'>, logger: Logger): DutyEffect =>
  dutyEffect('duty owner record', logger, (change) => {
    const { kind, src, chatId, previous, next } = change;
    if (chatId === undefined) return;
    if (kind === 'on' && next.since !== null) owners.claim(chatId, shiftOf(src, next.since));
    else if (kind === 'off' && !change.resumable && previous.since !== null) {
      owners.release(chatId, shiftOf(src, previous.since));
    }
  });

/** A held shift ended without its player: its claim is marked ended, if it is still this shift's. */
export const releaseEndedShifts = (
  heldEnded$: Observable<HeldShiftEnd>,
  owners: Pick<DutyOwners, 'release'>,
): Subscription =>
  heldEnded$.subscribe(({ chatId, src, since }) => {
    if (since !== null) owners.release(chatId, shiftOf(src, since));
  });
