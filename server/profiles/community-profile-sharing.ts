import { Subscription } from 'rxjs';
import type { Logger } from '../kernel/index.js';
import type { CommunityProfiles } from './profile-entry.js';
import type { Profiles } from './profiles.js';

/**
 * With BRIDGE_REDIS_URL: a profile another server got from the panel again reaches this server's copy and players
 * (their duty checked against it), and when Redis answers (again, perhaps restarted empty) this server offers the
 * profiles it holds fresh for its players. The community's copy is read before the panel by the cache itself.
 */
export function shareProfilesWithCommunity(
  community: CommunityProfiles,
  profiles: Pick<Profiles, 'renewedElsewhere' | 'offerToCommunity'>,
  logger: Logger,
): Subscription {
  const subscription = new Subscription();
  subscription.add(
    community.renewed$.subscribe((chatId) => {
      profiles.renewedElsewhere(chatId).catch((error: unknown) => {
        logger.error(`a profile renewed by another server could not be taken: ${String(error)}`);
      });
    }),
  );
  subscription.add(community.connected$.subscribe(() => profiles.offerToCommunity()));
  return subscription;
}
