// In dist/redis.cjs: the duty's side of a community, wired here so that dist/server.js carries none of it (its size is
// capped: test/build/bundle-size.test.ts).
import type { Observable, Subscription } from 'rxjs';
import type { Duty, DutyStore, HeldShiftEnd, Outbox } from '../duty/index.js';
import type { PlayerRegistry } from '../kernel/index.js';
import type { DutyOwners } from './duty-owner-api.js';
import { releaseEndedShifts } from './duty-owner-record.js';
import { takeHeldElsewhere } from './held-elsewhere.js';
import { endLapsedServersDuties } from './lapsed-servers.js';
import { followDutyOwners } from './taken-elsewhere.js';

/** What the community's duty follows and acts on, on this server. */
export interface CommunityDutyWiring {
  store: Pick<DutyStore, 'model'>;
  duty: Pick<Duty, 'submit'>;
  outbox: Pick<Outbox, 'enqueue'>;
  heldEnded$: Observable<HeldShiftEnd>;
  players: Pick<PlayerRegistry, 'chatId'>;
}

/** The community's duty on this server: what a joining session takes over, and what follows Redis until stopped. */
export interface CommunityDuty {
  /** A session that joins takes over its account's shift held on another server, if there is one. */
  takeHeldElsewhere: (src: number) => Promise<void>;
  /**
   * From now on: another server's claims end what they take here, restates are sent, lapsed servers' duties are ended,
   * and a held shift that ends lets its claim go.
   */
  follow(): Subscription;
}

export const communityDuty = (owners: DutyOwners, wiring: CommunityDutyWiring): CommunityDuty => ({
  takeHeldElsewhere: takeHeldElsewhere(owners, wiring.players, wiring.store, wiring.duty),
  follow() {
    const subscription = followDutyOwners(owners, wiring.store, wiring.duty);
    subscription.add(endLapsedServersDuties(owners, wiring.outbox));
    subscription.add(releaseEndedShifts(wiring.heldEnded$, owners));
    return subscription;
  },
});
