// The community's one panel budget in Redis: what this server asks of it, then the script that decides (below).
import * as z from '../../shared/zod-mini.js';
import type { Logger } from '../kernel/index.js';
import { errorText, LONGEST_WAIT_MS } from '../kernel/index.js';
import type { BudgetGrant, BudgetSnapshot, RateLimitObservation, SharedBudget } from '../panel/index.js';
import { classRank, type RequestClass } from '../panel/index.js';
import type { CommunityLink, ReadShared } from './community.js';
import { setAsideWrongType } from './read-shared.js';

// One call that fails (a timeout after the server's thread was busy for a moment: the answer was there, the timer
// fired first) is asked again shortly: deciding alone at once would spend what the other servers may be spending.
// Failing again and again, Redis is too slow to help: the scheduler decides alone for a while, then tries again.
const ASK_AGAIN_AFTER_MS = 100;
const FAILURES_BEFORE_ALONE = 3;
const ALONE_AFTER_FAILURE_MS = 5_000;

const ScriptAnswer = z.tuple([z.union([z.literal(0), z.literal(1)]), z.number()], z.number());

export interface SharedBudgetOptions {
  link: CommunityLink;
  readShared: ReadShared;
  now: () => number;
  logger: Logger;
  /** This run of this server (startCommunityRun), for the count of servers sharing the budget. */
  serverId: string;
}

const arg = (value: number | undefined): string | number => (value === undefined ? '' : value);

/** The community's budget in Redis (`<prefix>budget`), changed only by SHARED_BUDGET_LUA. */
export function sharedBudget({ link, readShared, now, logger, serverId }: SharedBudgetOptions): SharedBudget {
  // Each key with the Redis type the script keeps there: a key of another type (another program's) is set aside like
  // every key of ours.
  const types = {
    [`${link.prefix}budget`]: 'hash',
    [`${link.prefix}budget:in-flight`]: 'zset',
    [`${link.prefix}budget:servers`]: 'zset',
    [`${link.prefix}budget:grants`]: 'hash',
  } as const;
  const keys = Object.keys(types);
  // The request id of each ticket granted and not yet answered.
  const requests = new Map<number, string>();
  let asked = 0;
  let servers = 1;
  let aloneUntil = Number.NEGATIVE_INFINITY;
  let failures = 0;
  const run = async (args: Array<string | number>, onTimeout?: () => void) => {
    try {
      const answer = readShared(ScriptAnswer, await link.script(SHARED_BUDGET_LUA, keys, args), keys[0] as string);
      if (answer) {
        failures = 0;
        return answer;
      }
    } catch (error) {
      if (setAsideWrongType(link, error, types, logger)) return undefined;
      onTimeout?.();
      logger.debug(`the community's budget did not answer (${errorText(error)})`);
    }
    failures += 1;
    if (failures >= FAILURES_BEFORE_ALONE) {
      failures = 0;
      aloneUntil = now() + ALONE_AFTER_FAILURE_MS;
    }
    return undefined;
  };
  const requestOf = (ticket: number) => {
    const id = requests.get(ticket) ?? '';
    requests.delete(ticket);
    return id;
  };
  const answerArgs = (ticket: number, observation: RateLimitObservation) => [
    ticket,
    arg(observation.limit),
    arg(observation.windowMs),
    arg(observation.remaining),
    arg(observation.resetInMs),
  ];
  return {
    get active() {
      return link.isUp && now() >= aloneUntil;
    },
    get servers() {
      return servers;
    },
    get aloneForMs() {
      const left = aloneUntil - now();
      return left > 0 ? left : undefined;
    },
    async acquire(requestClass: RequestClass, local: BudgetSnapshot): Promise<BudgetGrant | undefined> {
      const resetIn = local.resetAt !== undefined && local.resetKnown ? Math.max(0, local.resetAt - now()) : undefined;
      asked += 1;
      const requestId = `${serverId}:${asked}`;
      // A call that failed may still have run in Redis (a timeout): whatever it was granted is given back.
      const giveBack = () => void link.script(SHARED_BUDGET_LUA, keys, ['release', requestId]).catch(() => {});
      const answer = await run(
        [
          'acquire',
          classRank(requestClass),
          local.limit,
          local.windowMs,
          local.limitSource === 'panel' ? 1 : 0,
          local.remaining,
          arg(resetIn),
          serverId,
          requestId,
        ],
        giveBack,
      );
      if (!answer) return this.active ? { granted: false, retryInMs: ASK_AGAIN_AFTER_MS } : undefined;
      const [granted, value, members] = answer;
      if (members !== undefined && members >= 1) servers = members;
      if (granted === 1) requests.set(value, requestId);
      return granted === 1 ? { granted: true, ticket: value } : { granted: false, retryInMs: value };
    },
    observe(ticket, observation) {
      void run(['observe', ...answerArgs(ticket, observation), '', '', requestOf(ticket)]);
    },
    refused(ticket, observation) {
      const retryAfter = arg(observation.retryAfterMs);
      void run(['refused', ...answerArgs(ticket, observation), retryAfter, LONGEST_WAIT_MS, requestOf(ticket)]);
    },
  };
}

// The community's panel budget as one atomic Redis script (EVALSHA): every server's every request takes from it.
// Redis's own clock (TIME) is the community's clock: servers' monotonic clocks have unrelated origins, and a window
// measured on Redis means the same moment to all of them. It follows server/panel/rate-budget.ts (the
// budget of one server), with two differences a community needs:
// - Requests in flight are counted by ticket (a sorted set), not by order: requests of several servers reach the
//   panel in any order, so an answer's `remaining` may not count requests granted before it yet. What is left is at
//   most that count less every request still in flight; within a window an answer can only lower the estimate (an
//   answer that took long says less than a quick later one).
// - Request classes keep their priority across servers:
//   rank 0 (duty) may take every request left, at once. Every other rank is paced over what is left of the window
//   less the duty reserve (a GCRA cell shared by every server, spread as one server's budget spreads it), so however
//   many servers storm, a duty call finds a request all through the window; rank 1 (a player waiting) may run ahead
//   of that pace by the interactive reserve and leaves only the duty reserve; rank 2+ (joins, refreshes) leaves the
//   interactive reserve. In the window's last slot (at least its last two seconds) anyone may use what is left, at
//   once, so a storm still uses the whole window; a duty call that comes after a storm took the last request there
//   waits for the next window, at most that slot.
// KEYS[1]: the budget hash; KEYS[2]: the tickets in flight (sorted set, scored by when they were granted); KEYS[3]:
// the servers that asked in the last minute (sorted set), whose number each server keeps for when Redis goes;
// KEYS[4]: the tickets of grants by the asker's request id, so a grant whose answer was lost (the call timed out
// after Redis ran it) is given back.
// - release: a server whose acquire timed out gives back what it may have been granted, once.
// ARGV (times in ms, '' for what is not known):
//   acquire rank limit windowMs learned(0|1) remaining resetInMs server requestId
//                                                                  -> {1, ticket, servers} | {0, waitMs, servers}
//   release requestId                                                        -> {1, 1 if given back else 0}
//     (the caller's own budget: the start of the community's, and the panel's limit once the caller has learned it)
//   observe ticket limit windowMs remaining resetInMs '' '' requestId                 -> {1, remaining}
//   refused ticket limit windowMs remaining resetInMs retryAfterMs longestMs requestId -> {1, blockedForMs}
export const SHARED_BUDGET_LUA = `
local key, flying, servers, grants = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local op = ARGV[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local MARGIN, SAME_WINDOW, LOST_AFTER = 1000, 1500, 30000
local function num(v) local n = tonumber(v) if n == nil or n < 0 then return nil end return n end
local function positive(v) local n = num(v) if n == nil or n < 1 then return nil end return n end

local s = {}
local raw = redis.call('HGETALL', key)
for i = 1, #raw, 2 do s[raw[i]] = tonumber(raw[i + 1]) end
-- A ticket never answered (its server died with it in flight) stops counting after a while.
redis.call('ZREMRANGEBYSCORE', flying, '-inf', now - LOST_AFTER)

local members = 1
if op == 'acquire' then
  redis.call('ZADD', servers, now, ARGV[8])
  redis.call('ZREMRANGEBYSCORE', servers, '-inf', now - 60000)
  redis.call('PEXPIRE', servers, 120000)
  members = redis.call('ZCARD', servers)
  local limit, windowMs, learned = positive(ARGV[3]), positive(ARGV[4]), ARGV[5] == '1'
  if s.limit == nil then
    -- No community budget yet (first server, or Redis restarted empty): start from what this server knows.
    s.limit = math.floor(limit or 1); s.windowMs = windowMs or 60000; s.learned = learned and 1 or 0
    s.remaining = math.min(s.limit, num(ARGV[6]) or s.limit)
    local resetIn = positive(ARGV[7])
    if resetIn then s.resetAt = now + resetIn; s.known = 1 end
  elseif s.learned ~= 1 and learned and limit then
    -- The community only guessed (config.lua); this server has read the panel's headers.
    s.limit = math.floor(limit); s.windowMs = windowMs or s.windowMs; s.learned = 1
    s.remaining = math.min(s.remaining or s.limit, s.limit, num(ARGV[6]) or s.limit)
  end
end
if s.limit == nil then return {0, 1000} end
s.taken = s.taken or 0
s.applied = s.applied or 0
s.remaining = s.remaining or s.limit
local limit, windowMs = s.limit, s.windowMs
local slot = windowMs / limit
local inFlight = redis.call('ZCARD', flying)

-- Past a block requests may leave again; past the reset a new window starts with the whole limit, less what is
-- still on its way (it may be counted in the new window).
if s.blocked and now >= s.blocked then s.blocked = nil end
if s.resetAt and now >= s.resetAt and not s.blocked then
  s.resetAt = nil; s.known = 0; s.arrival = nil
  s.remaining = math.max(0, limit - inFlight)
end

local dutyReserve = 0
if limit >= 20 then dutyReserve = 1 end
local interactiveReserve = dutyReserve + math.max(1, math.ceil(limit / 10))
if interactiveReserve >= limit then interactiveReserve = dutyReserve end

local function save()
  redis.call('DEL', key)
  local flat = {}
  for k, v in pairs(s) do flat[#flat + 1] = k; flat[#flat + 1] = tostring(v) end
  redis.call('HSET', key, unpack(flat))
  local keep = math.max(600000, 3 * windowMs)
  redis.call('PEXPIRE', key, keep)
  redis.call('PEXPIRE', flying, keep)
  redis.call('PEXPIRE', grants, LOST_AFTER)
end

if op == 'acquire' then
  local rank = tonumber(ARGV[2]) or 4
  if s.blocked then return {0, s.blocked - now, members} end
  if s.remaining < 1 then
    if s.resetAt then return {0, math.max(1, math.ceil(s.resetAt - now)), members} end
    return {0, math.ceil(slot), members}
  end
  local reserve = 0
  if rank == 1 then reserve = dutyReserve elseif rank >= 2 then reserve = interactiveReserve end
  -- The window's last slot: whatever was kept back for duty calls and waiting players goes to anyone, at once (the
  -- pace, whose debt may reach past the reset, holds no one back). At least the last two seconds: the panel's reset
  -- comes in whole seconds, rounded up, and an answer is read a little after it arrived (later still on a busy
  -- server), so the panel's window may end more than a second before the community's estimate, and a request left
  -- for later would only be spent in the next window.
  local lastSlot = math.max(slot, 2000)
  local closing = s.resetAt ~= nil and now >= s.resetAt - lastSlot
  if closing then reserve = 0 end
  if s.remaining - reserve < 1 then
    local release = (s.resetAt or (now + windowMs + MARGIN)) - lastSlot
    return {0, math.max(1, math.ceil(release - now)), members}
  end
  if rank >= 1 and s.arrival and not closing then
    local burst = math.min(limit, math.max(5, math.ceil(limit / 10)))
    -- A player waiting may run ahead of the joins' pace by the interactive reserve: they go first across servers.
    if rank == 1 then burst = burst + interactiveReserve - dutyReserve end
    local at = s.arrival - (burst - 1) * slot
    if at > now then return {0, math.ceil(at - now), members} end
  end
  if s.resetAt == nil then s.resetAt = now + windowMs + MARGIN; s.known = 0 end
  if rank >= 1 then
    -- Spread over what duty calls leave, as one server's budget does: duty calls find a request all through the
    -- window, and a join taking the last one it may does not push the pace past the waiting players' reserve.
    local spread = math.max(1, s.remaining - dutyReserve)
    s.arrival = math.max(s.arrival or now, now) + math.max(0, s.resetAt - now) / spread
  end
  s.remaining = s.remaining - 1
  s.taken = s.taken + 1
  redis.call('ZADD', flying, now, s.taken)
  redis.call('HSET', grants, ARGV[9], s.taken)
  save()
  return {1, s.taken, members}
end

if op == 'release' then
  local granted = tonumber(redis.call('HGET', grants, ARGV[2]))
  redis.call('HDEL', grants, ARGV[2])
  if granted == nil or redis.call('ZREM', flying, granted) == 0 then return {1, 0} end
  s.remaining = math.min(limit - redis.call('ZCARD', flying), s.remaining + 1)
  save()
  return {1, 1}
end

local ticket = tonumber(ARGV[2]) or 0
redis.call('ZREM', flying, ticket)
if ARGV[9] then redis.call('HDEL', grants, ARGV[9]) end
inFlight = redis.call('ZCARD', flying)
local l, w = positive(ARGV[3]), positive(ARGV[4])
if l then
  l = math.floor(l)
  if l < limit then s.remaining = math.min(s.remaining, l) end
  s.limit = l; s.learned = 1
end
if w then s.windowMs = w end
limit, windowMs = s.limit, s.windowMs
slot = windowMs / limit
local observed = num(ARGV[5])
local resetIn = tonumber(ARGV[6])

local function apply()
  if observed == nil then return end
  -- Requests still in flight may not be counted in this answer yet: assume the worse.
  local left = math.max(0, math.min(limit, observed - inFlight))
  local newest = ticket > s.applied
  if newest then s.applied = ticket end
  if resetIn == nil then
    if s.resetAt == nil then s.resetAt = now + windowMs + MARGIN end
    s.remaining = math.min(s.remaining, left)
    return
  end
  if resetIn <= 0 then
    -- The count belongs to a window the panel says is over: it says nothing about now.
    return
  end
  local resetAt = now + resetIn
  local same = s.known == 1 and s.resetAt ~= nil and math.abs(resetAt - s.resetAt) <= SAME_WINDOW
  if same then
    s.resetAt = math.min(s.resetAt, resetAt)
    s.remaining = math.min(s.remaining, left)
  elseif newest then
    -- A window the community had not seen yet (or only guessed): its count replaces the guess.
    s.resetAt = resetAt; s.known = 1
    s.remaining = left
  end
end

if op == 'observe' then
  apply()
  save()
  return {1, s.remaining}
end

if op == 'refused' then
  apply()
  local retryAfter = num(ARGV[7])
  local longest = num(ARGV[8]) or 60000
  local wait = windowMs
  if retryAfter then wait = retryAfter elseif s.resetAt and s.known == 1 then wait = s.resetAt - now end
  wait = math.min(longest, math.max(slot, wait))
  s.blocked = math.max(s.blocked or 0, now + wait)
  s.remaining = 0; s.resetAt = s.blocked; s.known = 1; s.arrival = nil
  save()
  return {1, math.floor(s.blocked - now)}
end
return redis.error_reply('unknown op ' .. tostring(op))
`;
