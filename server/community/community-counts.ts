import { BehaviorSubject, Subscription } from 'rxjs';
import type { OnDutyCounts } from '../../shared/events.js';
import * as z from '../../shared/zod-mini.js';
import type { Logger } from '../kernel/index.js';
import type { CommunityCounts, CommunityLink, ReadShared } from './community.js';
import { setAsideWrongType } from './read-shared.js';

/** Every server writes its counts again this often (on its own monotonic clock), which keeps them alive. */
export const COUNTS_BEAT_MS = 2_000;
/**
 * A server's counts live this long after its last write, on Redis's clock (one clock for every server): a server
 * that crashed stops counting within this, three beats it missed.
 */
export const COUNTS_TTL_MS = 3 * COUNTS_BEAT_MS;

export interface CommunityCountsOptions {
  link: CommunityLink;
  readShared: ReadShared;
  /** This run of this server: its counts' field. */
  serverId: string;
  /** The run before this one on this server: its field is taken out (a crash left it counting). */
  previousRun?: string;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
}

// Another server's counts as written: what another program put there is set aside, not added up.
const CountsSchema = z
  .record(z.string().check(z.minLength(1)), z.int().check(z.gte(0)))
  .check(z.refine((counts) => typeof counts.total === 'number', 'no total'));

// One hash of every server's counts and one sorted set of when each expires, by Redis's TIME: no two servers' clocks
// are compared. Both keys expire with the last server that writes.
const WRITE = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
if ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[1]) end
return 1`;

// The living servers' counts, as [id, counts, id, counts, …]; the expired ones are removed on the way.
const READ = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  redis.call('HDEL', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
end
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf')) do
  local value = redis.call('HGET', KEYS[1], id)
  if value then
    out[#out + 1] = id
    out[#out + 1] = value
  end
end
return out`;

const LEAVE = `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

// Departments by slug, then `total`, as `bridge:onDutyCount` has them.
const sum = (all: Iterable<OnDutyCounts>): OnDutyCounts => {
  const departments: Record<string, number> = {};
  let total = 0;
  for (const one of all) {
    total += one.total;
    for (const [slug, n] of Object.entries(one)) {
      if (slug !== 'total') departments[slug] = (departments[slug] ?? 0) + n;
    }
  }
  const sorted = Object.fromEntries(Object.entries(departments).sort(([x], [y]) => x.localeCompare(y)));
  return { ...sorted, total };
};

/**
 * This server's on-duty counts in the community's Redis, and every living server's summed. Each server writes its own
 * counts under its own field with an expiry, refreshed every beat: a server that crashed stops counting within
 * `COUNTS_TTL_MS`. A change is PUBLISHed, and every server reads the counts again when it hears one (within a Redis
 * round trip) and at every beat (which is how an expiry is seen). While Redis is gone, this server's own counts stay
 * current and the others' last known ones count until they would have expired.
 */
export function startCommunityCounts(options: CommunityCountsOptions): CommunityCounts {
  const { link, readShared, serverId, previousRun, now, sleep, logger } = options;
  const hash = `${link.prefix}counts`;
  const expiries = `${link.prefix}counts:expiry`;
  const channel = `${link.prefix}counts`;
  let own: OnDutyCounts = { total: 0 };
  let others: OnDutyCounts[] = [];
  let othersReadAt = Number.NEGATIVE_INFINITY;
  let stopped = false;
  const counts = new BehaviorSubject<OnDutyCounts>(own);
  const emit = () => counts.next(sum([own, ...others]));

  const failed = (error: unknown): void => {
    setAsideWrongType(link, error, { [hash]: 'hash', [expiries]: 'zset' }, logger);
    // The others' counts as last read count until they would have expired.
    if (now() - othersReadAt > COUNTS_TTL_MS && others.length > 0) {
      others = [];
      emit();
    }
  };
  const write = (announce: boolean) =>
    link
      .script(WRITE, [hash, expiries], [serverId, JSON.stringify(own), COUNTS_TTL_MS, announce ? channel : ''])
      .catch(failed);
  const read = () =>
    link
      .script<unknown[]>(READ, [hash, expiries], [])
      .then((flat) => {
        const read: OnDutyCounts[] = [];
        for (let i = 0; i + 1 < (Array.isArray(flat) ? flat.length : 0); i += 2) {
          const id = String(flat[i]);
          if (id === serverId) continue;
          const counts = readShared(CountsSchema, flat[i + 1], `${hash} (server ${id})`);
          if (counts) read.push(counts as OnDutyCounts);
        }
        others = read;
        othersReadAt = now();
        emit();
      })
      .catch(failed);

  const subscription = new Subscription();
  subscription.add(
    link.messages$(channel).subscribe((from) => {
      if (from !== serverId) void read();
    }),
  );
  // Redis back (perhaps restarted empty): this server's counts are written again at once, and what the run before
  // this one left (it crashed) is taken out first, rather than counted twice until it expires.
  const leave = (run: string) => link.script(LEAVE, [hash, expiries], [run]);
  subscription.add(
    link.connected$.subscribe(() => {
      void (previousRun ? leave(previousRun).catch(failed) : Promise.resolve()).then(() => write(true)).then(read);
    }),
  );
  void (async () => {
    while (!stopped) {
      await sleep(COUNTS_BEAT_MS);
      if (stopped) break;
      await write(false);
      await read();
    }
  })();

  return {
    publish(counted) {
      own = { ...counted };
      emit();
      void write(true);
    },
    // Every sum, repeats included: CommunityOnDutyCount publishes only a changed one.
    counts$: counts.asObservable(),
    get servers() {
      return others.length + 1;
    },
    stop() {
      stopped = true;
      subscription.unsubscribe();
      counts.complete();
      // A clean stop leaves at once; a crash leaves when its field expires.
      void leave(serverId).catch(() => {});
    },
  };
}
