// The scripts that keep each chat account's duty owner in the community's Redis (issue 30; docs/several-servers.md,
// "How an account's duty is fenced"). Each runs atomically and names every key it touches. Times are Redis's own
// (TIME): microseconds for fences, milliseconds for `quiet`. Large numbers are written as text: cjson keeps 14
// digits, a fence has 16; Lua's numbers hold them exactly (below 2^53).
//
// The record under `duty-owner:<chatId>` (JSON text):
//   server, shift   the claim: a server's identity and its shift (session and start of the duty)
//   run             the run of that server that claimed it
//   fence           when the panel took the claim's `on`, µs on Redis's clock: claims are ordered by (fence, server,
//                   shift), and a claim is written only over a lower one
//   sent            when that `on` left for the panel (µs; "0": unknown)
//   dept            the department of the duty (a peer's `off` names it)
//   state           live | ending (an `off` is on its way, confirmed) | ended
//   by              the server that confirmed the `off` (itself, or a peer ending a lapsed server's shift)
//   quiet           ms: no call confirmed for an older fence can reach the panel after it
//   restate         how many times this claim's server was asked to send its `on` again: by another server, or by
//                   the claim itself when it replaced a call that may have reached the panel after its `on`
//   from            the claim (`<server>:<shift>`) whose held shift this one took over: it sent no `on`, so it asks
//                   that claim for no restate
//   held            ms on Redis's clock: the shift is held until then for its player to come back after their game
//                   crashed (Config.ResumeWindowMs; issue 32), on this server or another; with it, `since` and `rank`
//   took            ms on Redis's clock: this claim took over a held shift (with `from`, `since` and `rank`), whose
//                   window ends then; a second run of that take answers the same
//   late            1: written only after its first attempt failed (Redis down, slow or cut off at the `on`), so
//                   whoever it replaced learns it after the fault (`superseded`, not `replaced`)
// A record written before issue 30 (`{server, shift}` or `{…, ended: true}`) reads as fence 0.
// KEYS[2], `owned`, is the index of what each server owns: members `<server>:<chatId>`, score 0, read by range.
//
// The `on` of a new duty is announced under `duty-on:<chatId>` before it leaves (INTENT_LUA): `{server, dept, sent}`,
// with an expiry. Its claim can only be written once the panel took it, so a server that dies in between owns no
// record; a peer that takes that server over finds the `on` here and ends it, unclaimed.

const COMMON = `
local function now_us()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function text(n) return string.format('%.0f', n) end
local function read(key)
  local raw = redis.call('GET', key)
  if not raw then return nil end
  local ok, r = pcall(cjson.decode, raw)
  if not ok or type(r) ~= 'table' or type(r.server) ~= 'string' or type(r.shift) ~= 'string' then return nil end
  r.fence = tonumber(r.fence) or 0
  r.sent = tonumber(r.sent) or 0
  r.quiet = tonumber(r.quiet) or 0
  r.restate = tonumber(r.restate) or 0
  if r.state ~= 'live' and r.state ~= 'ending' and r.state ~= 'ended' then
    r.state = (r.ended == true) and 'ended' or 'live'
  end
  r.ended = nil
  return r
end
local ENDED_TTL_S = 604800
local function write(key, r)
  local out = {}
  for k, v in pairs(r) do out[k] = v end
  out.fence = text(r.fence); out.sent = text(r.sent); out.quiet = text(r.quiet)
  local raw = cjson.encode(out)
  if r.state == 'ended' then redis.call('SET', key, raw, 'EX', ENDED_TTL_S) else redis.call('SET', key, raw) end
end
local function newer(f1, s1, h1, f2, s2, h2)
  if f1 ~= f2 then return f1 > f2 end
  if s1 ~= s2 then return s1 > s2 end
  return h1 > h2
end
local function member(server, chatId) return server .. ':' .. chatId end
-- Another server is asked to send its claim's on again once every older call is over.
local function ask_restate(key, r, channel, chatId, now_ms)
  r.restate = r.restate + 1
  write(key, r)
  local wait = math.max(0, r.quiet - now_ms)
  redis.call('PUBLISH', channel, cjson.encode({ kind = 'restate', chatId = chatId, server = r.server, shift = r.shift,
    waitMs = wait }))
end
`;

/**
 * A server's duty started: its claim is written over a lower fence, else it lost.
 * KEYS: record, owned. ARGV: server, run, shift, fence (µs, '' = now), sent (µs, '' = unknown), dept, channel, chatId,
 * overlapUs (how close two `on`s may be and still have reached the panel in either order), former (this server's
 * identity before it had to take a fresh one, '' for none), late ('1': an earlier attempt of this claim failed).
 * A claim that loses to one whose `on` may not have left after its own (`sent` within `overlapUs` of this claim's
 * fence) asks that one to restate its `on` when it is live, and answers `close` (the loser's own session may be the
 * one at the panel) when it has ended.
 * → {'won', fence, restateInMs (-1: none), restate count} | {'mine', fence, restate count, restateInMs}
 *   | {'lost', server, shift, state, close (1|0), late (1|0: the winner was written late)}
 */
export const CLAIM_LUA = `${COMMON}
local key, owned = KEYS[1], KEYS[2]
local server, run, shift, dept, channel, chatId = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[6]), ARGV[7], ARGV[8]
local overlap, former, late = tonumber(ARGV[9]), ARGV[10], ARGV[11] == '1'
local now = now_us()
local now_ms = math.floor(now / 1000)
local fence = tonumber(ARGV[4]) or now
local sent = tonumber(ARGV[5]) or 0
local cur = read(key)
local ours = cur and cur.shift == shift and (cur.server == server or (former ~= '' and cur.server == former))
if ours and cur.server == server and (cur.state == 'live' or cur.by == server) then
  return {'mine', text(cur.fence), cur.restate, math.max(0, cur.quiet - now_ms)}
end
local wait = -1
if ours then
  -- This very claim, ended by another server (a peer, while this one was cut off past its liveness) or kept under the
  -- identity this server had: claimed again as a new on, which the panel needs again once the other calls are over.
  fence = math.max(cur.fence + 1, now)
  sent = now
  if cur.state ~= 'live' then wait = math.max(0, cur.quiet - now_ms) end
  if cur.server ~= server then redis.call('ZREM', owned, member(cur.server, chatId)) end
elseif cur and newer(cur.fence, cur.server, cur.shift, fence, server, shift) then
  -- A claim that took over this very shift, held here, sent no on of its own: nothing of it can race this claim's.
  local close = (cur.sent == 0 or cur.sent <= fence + overlap) and cur.from ~= member(server, shift)
  if close and cur.state == 'live' then ask_restate(key, cur, channel, chatId, now_ms) end
  return {'lost', cur.server, cur.shift, cur.state, close and 1 or 0, cur.late == 1 and 1 or 0}
elseif cur then
  -- Replacing another claim: its on, or a call confirmed under it, may have reached the panel after this one's.
  local own_run = cur.server == server and cur.run == run
  local close = sent == 0 or cur.fence + overlap >= sent or cur.quiet * 1000 + overlap >= sent
  if not own_run and close then wait = math.max(0, cur.quiet - now_ms) end
  if cur.server ~= server then redis.call('ZREM', owned, member(cur.server, chatId)) end
end
-- The restate this claim owes counts as the first ask: should this answer be lost (the command timed out, and ran),
-- the next attempt reads it back as 'mine'.
local restate = wait >= 0 and 1 or 0
write(key, { server = server, run = run, shift = shift, fence = fence, sent = sent, dept = dept, state = 'live',
  quiet = cur and cur.quiet or 0, restate = restate, late = late and 1 or nil })
redis.call('ZADD', owned, 0, member(server, chatId))
redis.call('PUBLISH', channel, cjson.encode({ kind = 'claim', chatId = chatId, server = server, shift = shift,
  fence = text(fence) }))
return {'won', text(fence), wait, restate}`;

/**
 * Right before an attempt of a fenced call: is its claim still the account's current one? On `go` the call must be
 * over before `quiet`, which this moves on by `leaseMs`.
 * KEYS: record, owned, servers (the liveness of each server). ARGV: server, shift ('' with mode unclaimed), fence
 * (µs, '' unknown), leaseMs, mode ('end': an off that ends the claim | 'keep': an on of the live claim | 'unclaimed':
 * an off of an on never claimed, sent only while no live claim exists), confirmer, create ('1': write this claim
 * where there is none, or an older one), channel, chatId, dept, livenessMs, former (this server's identity before it
 * had to take a fresh one, '' for none: a record of the same shift under it is this claim).
 * A peer's `off` of a lapsed server's claim (or, unclaimed, of its `on` never claimed) goes only while that server is
 * still lapsed: one that renews again keeps its duty.
 * → {'go'} | {'stale', server, state} | {'ended'} (mode keep: the claim was ended by another server) | {'none'}
 */
export const CONFIRM_LUA = `${COMMON}
local key, owned = KEYS[1], KEYS[2]
local server, shift, fence, lease, mode = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local confirmer, create, channel, chatId, dept = ARGV[6], ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
local former = ARGV[12] or ''
local now_ms = math.floor(now_us() / 1000)
local cur = read(key)
if cur and former ~= '' and confirmer == server and cur.server == former and cur.shift == shift then
  -- This server's own claim, written under the identity it had before it had to take a fresh one (as CLAIM_LUA's
  -- former): it is this claim, moved to this identity.
  redis.call('ZREM', owned, member(former, chatId))
  cur.server = server
  if cur.by == former then cur.by = server end
  if cur.state == 'live' then redis.call('ZADD', owned, 0, member(server, chatId)) end
end
if confirmer ~= server then
  local renewed = tonumber(redis.call('ZSCORE', KEYS[3], server))
  if renewed and now_ms - renewed <= tonumber(ARGV[11]) then return {'stale', server, 'alive'} end
end
local function hold(r) r.quiet = math.max(r.quiet, now_ms + lease) end
if mode == 'unclaimed' then
  if cur and cur.state == 'live' then
    ask_restate(key, cur, channel, chatId, now_ms)
    return {'stale', cur.server, cur.state}
  end
  local r = cur or { server = confirmer, shift = '', fence = 0, sent = 0, state = 'ended', quiet = 0, restate = 0 }
  hold(r)
  write(key, r)
  return {'go'}
end
if cur and cur.server == server and cur.shift == shift then
  if mode == 'keep' then
    if cur.state ~= 'live' then return {'ended'} end
  elseif cur.state == 'ended' or (cur.state == 'ending' and cur.by ~= nil and cur.by ~= confirmer and cur.by ~= server) then
    -- Its off was sent already, or a peer is sending it (for a lapsed server).
    return {'stale', cur.by or cur.server, 'ended'}
  else
    -- A peer takes over the off of a lapsed server that died with it on its way.
    cur.state = 'ending'
    if cur.by == nil or (cur.by == server and confirmer ~= server) then cur.by = confirmer end
  end
  hold(cur)
  write(key, cur)
  return {'go'}
end
if create == '1' and (cur == nil or (fence and newer(fence, server, shift, cur.fence, cur.server, cur.shift))) then
  -- Redis lost this claim (restarted empty, or an older snapshot or replica): it is written again, as it stands.
  local r = { server = server, shift = shift, fence = fence or now_us(), sent = 0, dept = dept,
    state = mode == 'end' and 'ending' or 'live', quiet = cur and cur.quiet or 0, restate = 0 }
  if mode == 'end' then r.by = confirmer end
  hold(r)
  write(key, r)
  if cur and cur.server ~= server then redis.call('ZREM', owned, member(cur.server, chatId)) end
  if r.state == 'live' then redis.call('ZADD', owned, 0, member(server, chatId)) end
  return {'go'}
end
if not cur then return {'none'} end
if mode == 'end' and not fence and confirmer == server and cur.state ~= 'live' then
  -- An off its crashed run left before it could claim (Redis lost that claim, or never had it): no fence orders it
  -- against another shift's record, and an ended one says nothing of this shift, which the panel may still have
  -- open. Only a live claim holds the account; once every server had time to write again what it holds, it goes.
  if create ~= '1' then return {'none'} end
  hold(cur)
  write(key, cur)
  return {'go'}
end
-- A claim that took over this call's held shift sent no on that this call could have raced.
if cur.state == 'live' and cur.from ~= member(server, shift) then ask_restate(key, cur, channel, chatId, now_ms) end
return {'stale', cur.server, cur.state}`;

/**
 * A fenced `off` was delivered: the claim is ended (kept a week, so a server back from a crash finds who ended it).
 * KEYS: record, owned. ARGV: server, shift, chatId. → 1 when it was this claim's.
 */
export const ENDED_LUA = `${COMMON}
local cur = read(KEYS[1])
if not (cur and cur.server == ARGV[1] and cur.shift == ARGV[2]) or cur.state == 'live' then return 0 end
cur.state = 'ended'
write(KEYS[1], cur)
redis.call('ZREM', KEYS[2], member(ARGV[1], ARGV[3]))
return 1`;

/**
 * The `on` of a new duty leaves for the panel: announced, so that a peer can end it if this server dies before the
 * claim is written (its crash, right after the panel took the `on`, leaves no record). Indexed as this server's in
 * `owned`, where the sweep of a lapsed server finds it.
 * KEYS: `duty-on:<chatId>`, owned. ARGV: server, dept, ttlMs, chatId. → 1
 */
export const INTENT_LUA = `${COMMON}
local t = redis.call('TIME')
local sent = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('SET', KEYS[1], cjson.encode({ server = ARGV[1], dept = tonumber(ARGV[2]), sent = text(sent) }), 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], 0, member(ARGV[1], ARGV[4]))
return 1`;

/**
 * A live claim's shift is now held (its game crashed; Config.ResumeWindowMs): until `held`, another server where the
 * account joins may take it over (TAKE_HELD_LUA). Any later claim, or the off of the shift, clears it.
 * KEYS: record. ARGV: server, shift, windowMs, since (the duty's start, ms), rank. → 1 when it was this claim's.
 */
export const HOLD_LUA = `${COMMON}
local cur = read(KEYS[1])
if not (cur and cur.server == ARGV[1] and cur.shift == ARGV[2] and cur.state == 'live') then return 0 end
cur.held = text(math.floor(now_us() / 1000) + tonumber(ARGV[3]))
cur.since = text(tonumber(ARGV[4]))
cur.rank = tonumber(ARGV[5])
write(KEYS[1], cur)
return 1`;

/**
 * The account joined this server while its shift is held elsewhere: this server's claim takes it over, fenced above the
 * holder's, if it is still held (live, and its window not over on Redis's clock). Nothing is sent to the panel, which
 * never ended the shift; the holder hears the claim and lets its held shift go without an off.
 * KEYS: record, owned. ARGV: server, run, src (this server's session), channel, chatId.
 * A take that ran already (its answer lost to a timeout) answers `took` again, so a retry learns what it holds.
 * → {'took', fence, shift, dept, rank, since, left (ms of the window)} | {'no'}
 */
export const TAKE_HELD_LUA = `${COMMON}
local key, owned = KEYS[1], KEYS[2]
local server, run, src, channel, chatId = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local now = now_us()
local now_ms = math.floor(now / 1000)
local cur = read(key)
if cur and cur.server == server and cur.run == run and cur.took and cur.shift == src .. ':' .. (cur.since or '')
  and cur.state == 'live' then
  -- This very take ran already, and its answer was lost (the command timed out, and ran): the same answer again.
  return {'took', text(cur.fence), cur.shift, cur.dept, cur.rank, cur.since, math.max(0, tonumber(cur.took) - now_ms)}
end
local held = cur and tonumber(cur.held)
local takes = held and cur.state == 'live' and cur.server ~= server and cur.dept and cur.rank and cur.since
if not (takes and held > now_ms) then return {'no'} end
local shift = src .. ':' .. cur.since
local fence = math.max(cur.fence + 1, now)
redis.call('ZREM', owned, member(cur.server, chatId))
write(key, { server = server, run = run, shift = shift, fence = fence, sent = now, dept = cur.dept, state = 'live',
  quiet = cur.quiet, restate = 0, from = member(cur.server, cur.shift), since = cur.since, rank = cur.rank,
  took = text(held) })
redis.call('ZADD', owned, 0, member(server, chatId))
redis.call('PUBLISH', channel, cjson.encode({ kind = 'claim', chatId = chatId, server = server, shift = shift,
  fence = text(fence) }))
return {'took', text(fence), shift, cur.dept, cur.rank, cur.since, held - now_ms}`;
