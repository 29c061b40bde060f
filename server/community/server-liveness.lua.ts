// The scripts of each server's liveness in the community's Redis (issue 30): when each server last renewed it, on
// Redis's clock, and which run of it did. KEYS: `servers` (sorted set: identity → last renewal, ms), `server-runs`
// (hash: identity → run id), `owned` (the index of what each server owns: `<server>:<chatId>`).

/**
 * Who renews this identity, as Redis says now (no writes).
 * ARGV: server. → {run or false, last renewal ms or false, now ms}
 */
export const LIVENESS_OF_LUA = `#!lua flags=no-writes
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local run = redis.call('HGET', KEYS[2], ARGV[1])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
return {run, score, now}`;

/**
 * Renews this run's liveness under its identity, unless another run renews it: that is another live server with the
 * same identity (a copied folder, or the same server started twice). `allowRun`/`allowScore`: the run seen there, and
 * its last renewal, that this server found was not renewed since (its own last run, dead). With `sweep`, the first
 * other server whose liveness lapsed is taken out, with what it owned, for this server to end at the panel: in one
 * step, so exactly one server takes it.
 * ARGV: server, run, livenessMs, allowRun, allowScore, sweep ('1'|'0').
 * → {'conflict', run} | {'ok', now µs (text), revived (1: this identity had no live entry: peers may have ended its
 *    duties), lapsed server or false, ms since its last renewal, chat ids it owned...}
 */
export const RENEW_LUA = `
local servers, runs, owned = KEYS[1], KEYS[2], KEYS[3]
local server, run, liveness, allow_run, allow_score = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local now = math.floor(now_us / 1000)
local current = redis.call('HGET', runs, server)
local raw_score = redis.call('ZSCORE', servers, server)
local score = tonumber(raw_score)
local alive = score ~= nil and now - score <= liveness
if current and current ~= run and alive and not (current == allow_run and raw_score == allow_score) then
  return {'conflict', current}
end
local revived = (current ~= run or not alive) and 1 or 0
redis.call('HSET', runs, server, run)
redis.call('ZADD', servers, now, server)
local answer = {'ok', string.format('%.0f', now_us), revived, false, 0}
if ARGV[6] == '1' then
  local gone = redis.call('ZRANGEBYSCORE', servers, '-inf', now - liveness - 1, 'WITHSCORES', 'LIMIT', 0, 1)
  if gone[1] and gone[1] ~= server then
    local lapsed = gone[1]
    redis.call('ZREM', servers, lapsed)
    redis.call('HDEL', runs, lapsed)
    local members = redis.call('ZRANGEBYLEX', owned, '[' .. lapsed .. ':', '[' .. lapsed .. ';')
    if #members > 0 then redis.call('ZREM', owned, unpack(members)) end
    answer[4] = lapsed
    answer[5] = now - tonumber(gone[2])
    for _, m in ipairs(members) do answer[#answer + 1] = string.sub(m, #lapsed + 2) end
  end
end
return answer`;
