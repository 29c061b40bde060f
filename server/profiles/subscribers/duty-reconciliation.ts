import { filter, type Observable, type Subscription } from 'rxjs';
import type { Logger } from '../../kernel/index.js';
import { eachGuarded } from '../../kernel/index.js';
import type { ProfileEntry } from '../profile-entry.js';
import type { ProfileServed, ProfileUpdate } from '../profile-updates.js';

export interface DutyReconciliationOptions {
  /** `duty.submit({ kind: 'reconcile', src, profile })`: ends or changes the duty the profile no longer allows. */
  reconcile: (src: number, profile: ProfileEntry) => void;
  logger: Logger;
}

type Reconcilable = ProfileServed & { view: { entry: ProfileEntry } };

/**
 * A department removed, a rank changed or the account deleted in the panel reaches the duty of a player on duty:
 * every profile served to be checked against (a background refresh, a revalidation, /dutyrefresh) is handed to the
 * duty service, which ignores it for a player off duty. The panel's own answer that it does not know the account is
 * handed on too (an entry `not_registered`); an answer that is no profile at all (the panel could not be asked or
 * read: no entry) changes nothing.
 */
export function reconcileDuties(
  profiles$: Observable<ProfileUpdate>,
  { reconcile, logger }: DutyReconciliationOptions,
): Subscription {
  const checked$ = profiles$.pipe(
    filter(
      (update): update is Reconcilable =>
        update.kind === 'served' && update.checksDuty && update.view.entry !== undefined,
    ),
  );
  return eachGuarded(checked$, 'duty reconciliation', logger, ({ src, view }) => reconcile(src, view.entry));
}
