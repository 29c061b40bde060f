import { filter, type Observable, type Subscription } from 'rxjs';
import type { Logger } from '../../log/logger.js';
import type { ProfileEntry } from '../profile-entry.js';
import type { ProfileServed, ProfileUpdate } from '../profile-updates.js';
import { eachUpdate } from './each-update.js';

export interface DutyReconciliationOptions {
  /** `duty.submit({ kind: 'reconcile', src, profile })`: ends or changes the duty the profile no longer allows. */
  reconcile: (src: number, profile: ProfileEntry) => void;
  logger: Logger;
}

type Reconcilable = ProfileServed & { view: { entry: ProfileEntry } };

/**
 * A department removed or a rank changed in the panel reaches the duty of a player on duty: every profile served to
 * be checked against (a background refresh, a revalidation, /dutyrefresh) is handed to the duty service, which
 * ignores it for a player off duty. An answer that is no profile (`ok: false`) changes nothing.
 */
export function reconcileDuties(
  profiles$: Observable<ProfileUpdate>,
  { reconcile, logger }: DutyReconciliationOptions,
): Subscription {
  const checked$ = profiles$.pipe(
    filter(
      (update): update is Reconcilable =>
        update.kind === 'served' && update.checksDuty && update.view.entry !== undefined && update.view.payload.ok,
    ),
  );
  return eachUpdate(checked$, 'duty reconciliation', logger, ({ src, view }) => reconcile(src, view.entry));
}
