import { filter, map } from 'rxjs';
import * as z from '../../shared/zod-mini.js';
import type { Logger } from '../kernel/index.js';
import type { CommunityProfiles, ProfileEntry, SharedProfile } from '../profiles/index.js';
import { PersistedProfileSchema } from '../profiles/index.js';
import type { CommunityLink, ReadShared } from './community.js';
import { setAsideWrongType } from './read-shared.js';

export interface CommunityProfilesOptions {
  link: CommunityLink;
  readShared: ReadShared;
  /** This run of this server: its own announcements are not news to it. */
  serverId: string;
  logger: Logger;
}

// The profile and how long it has left, read together: the age comes from Redis's clock, never a server's.
const READ = `return { redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1]) }`;

// The community's copy becomes this server's answer from the panel, and the others hear of it.
const RENEW = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1`;

const AnnouncementSchema = z.object({ from: z.string(), chatId: z.string() });

/**
 * Profiles in the community's Redis: `profile:<chat id>` holds `{ ttlMs, entry }` (the KVP copy's format, read with the
 * contract's schema) and expires when the profile stops being fresh, so a key's PTTL is what is left of its
 * freshness and `ttlMs - PTTL` its age, both on Redis's one clock. The panel token and the panel's address are never
 * written. Every answer a server gets from the panel replaces the community's copy and is announced on
 * `profiles`, so the others holding that account take it too.
 */
export function startCommunityProfiles({
  link,
  readShared,
  serverId,
  logger,
}: CommunityProfilesOptions): CommunityProfiles {
  const keyOf = (chatId: string) => `${link.prefix}profile:${chatId}`;
  const channel = `${link.prefix}profiles`;
  const failed = (key: string) => (error: unknown) => {
    setAsideWrongType(link, error, { [key]: 'string' }, logger);
    return undefined;
  };
  const sharedValue = (entry: ProfileEntry, ttlMs: number) => JSON.stringify({ ttlMs, entry });

  return {
    async read(chatId): Promise<SharedProfile | undefined> {
      const key = keyOf(chatId);
      const answer = await link.script<unknown>(READ, [key], []).catch(failed(key));
      if (!Array.isArray(answer) || answer[0] === null || answer[0] === undefined) return undefined;
      const [raw, pttl] = answer as [unknown, unknown];
      const shared = readShared(PersistedProfileSchema, raw, key);
      if (!shared) return undefined;
      if (shared.entry.chatId !== chatId) {
        logger.once(
          `redis-unreadable:${key}`,
          'warn',
          `Redis holds another account's profile under ${key}; it is set aside`,
        );
        return undefined;
      }
      // No expiry: not written by a bridge, whose copies always expire; past its TTL: no freshness left to share.
      if (typeof pttl !== 'number' || pttl <= 0 || pttl > shared.ttlMs) {
        if (typeof pttl === 'number' && pttl === -1) {
          logger.once(
            `redis-unreadable:${key}`,
            'warn',
            `Redis holds a profile under ${key} that never expires; it is set aside`,
          );
        }
        return undefined;
      }
      return { entry: shared.entry as ProfileEntry, ageMs: shared.ttlMs - pttl };
    },
    publish(entry, ttlMs) {
      const key = keyOf(entry.chatId);
      const announcement = JSON.stringify({ from: serverId, chatId: entry.chatId });
      void link.script(RENEW, [key], [sharedValue(entry, ttlMs), ttlMs, channel, announcement]).catch(failed(key));
    },
    offer(entry, ttlMs, freshForMs) {
      if (freshForMs <= 0) return;
      const key = keyOf(entry.chatId);
      // NX: a copy another server wrote meanwhile is as fresh or fresher than this one.
      void link.call('SET', key, sharedValue(entry, ttlMs), 'PX', Math.ceil(freshForMs), 'NX').catch(failed(key));
    },
    renewed$: link.messages$(channel).pipe(
      map((message) => readShared(AnnouncementSchema, message, channel)),
      filter((heard): heard is z.infer<typeof AnnouncementSchema> => heard !== undefined && heard.from !== serverId),
      map((heard) => heard.chatId),
    ),
    connected$: link.connected$,
  };
}
