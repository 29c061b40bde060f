import { filter, type Observable, type Subscription } from 'rxjs';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import type { Logger } from '../../kernel/index.js';
import { eachGuarded } from '../../kernel/index.js';
import type { ProfileServed, ProfileUpdate } from '../profile-updates.js';

export interface ClientPushOptions {
  isConnected: (src: number) => boolean;
  emitClient: (event: string, src: number, ...args: unknown[]) => void;
  /** The client's duty snapshot, sent after every profile: its menu reads both together. */
  sendDutyState: (src: number) => void;
  logger: Logger;
}

/**
 * `bridge:client:profile` for every profile served to a player, whatever its status (cached, revalidating, fresh,
 * stale, or the reason there is none), followed by their duty snapshot. A player who left meanwhile gets nothing.
 */
export function pushProfilesToClients(profiles$: Observable<ProfileUpdate>, options: ClientPushOptions): Subscription {
  const { isConnected, emitClient, sendDutyState, logger } = options;
  const served$ = profiles$.pipe(
    filter((update): update is ProfileServed => update.kind === 'served'),
    filter(({ src }) => isConnected(src)),
  );
  return eachGuarded(served$, 'profile push', logger, ({ src, view }) => {
    emitClient(PUBLIC_EVENTS.profile, src, view.payload);
    sendDutyState(src);
  });
}
