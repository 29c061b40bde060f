import type { Subscription } from 'rxjs';
import type { DutyOwners } from '../community/duty-owner-api.js';
import type { Duty } from './duty.js';
import type { DutyStore } from './model/duty-store.js';

/**
 * Redis as a source of intents: an account another server of the community took becomes a `takenElsewhere` intent
 * for the session holding it here (or whose shift is held here after a crash), in the account's lane like any other,
 * and decide ends that duty without an `off`.
 */
export const endDutiesTakenElsewhere = (
  owners: Pick<DutyOwners, 'takenElsewhere$'>,
  store: Pick<DutyStore, 'model'>,
  duty: Pick<Duty, 'submit'>,
): Subscription =>
  owners.takenElsewhere$.subscribe((chatId) => {
    const holder = store.model.holders.get(chatId) ?? store.model.held.get(chatId);
    if (holder) duty.submit({ kind: 'takenElsewhere', src: holder.src, chatId });
  });
