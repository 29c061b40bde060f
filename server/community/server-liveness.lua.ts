// The scripts of each server's liveness in the community's Redis (issue 30): when each server last renewed it, on
// Redis's clock, and which run of it did. KEYS: `servers` (sorted set: identity → last renewal, ms), `server-runs`
// (hash: identity → run id), `owned` (the index of what each server owns: `<server>:<chatId>`), `takeovers` (hash:
// lapsed identity → JSON `{by, at, silentForMs, chatIds}`, a lapsed server taken out and not yet ended by `by`).

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
 * step, so exactly one server takes it. The takeover is kept under `takeovers` until its taker says it is done
 * (TAKEN_OVER_LUA), and every renewal of the taker lists it again: a renewal whose answer was lost (it timed out, and
 * ran) loses no takeover. A lapsed server's own unfinished takeovers pass to the server that takes it out.
 * ARGV: server, run, livenessMs, allowRun, allowScore, sweep ('1'|'0').
 * → {'conflict', run} | {'ok', now µs (text), revived (1: this identity had no live entry: peers may have ended its
 *    duties), takeover JSON...} (with `sweep`: every takeover this server has to finish)
 */
export const RENEW_LUA = `
local servers, runs, owned, takeovers = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
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
local answer = {'ok', string.format('%.0f', now_us), revived}
if ARGV[6] ~= '1' then return answer end
local function decode(raw)
  local ok, t = pcall(cjson.decode, raw)
  if ok and type(t) == 'table' and type(t.by) == 'string' and type(t.chatIds) == 'table' then return t end
  return nil
end
-- cjson writes an empty table as an object: an empty list of accounts is written as a list.
local function encode(t)
  local raw = cjson.encode(t)
  if #t.chatIds == 0 then raw = string.gsub(raw, '"chatIds":{}', '"chatIds":[]') end
  return raw
end
local gone = redis.call('ZRANGEBYSCORE', servers, '-inf', now - liveness - 1, 'WITHSCORES', 'LIMIT', 0, 1)
if gone[1] and gone[1] ~= server then
  local lapsed = gone[1]
  redis.call('ZREM', servers, lapsed)
  redis.call('HDEL', runs, lapsed)
  local members = redis.call('ZRANGEBYLEX', owned, '[' .. lapsed .. ':', '[' .. lapsed .. ';')
  if #members > 0 then redis.call('ZREM', owned, unpack(members)) end
  local chat_ids = {}
  local seen = {}
  -- One it lapsed from before and was never finished: its accounts are ended with these.
  local before = redis.call('HGET', takeovers, lapsed)
  local earlier = before and decode(before)
  for _, id in ipairs(earlier and earlier.chatIds or {}) do
    if not seen[id] then seen[id] = true; chat_ids[#chat_ids + 1] = id end
  end
  for _, m in ipairs(members) do
    local id = string.sub(m, #lapsed + 2)
    if not seen[id] then seen[id] = true; chat_ids[#chat_ids + 1] = id end
  end
  local entry = { by = server, at = string.format('%.0f', tonumber(gone[2])), silentForMs = now - tonumber(gone[2]),
    chatIds = chat_ids }
  redis.call('HSET', takeovers, lapsed, encode(entry))
  -- What the lapsed server itself had taken over and not finished is this server's to finish now.
  local pending = redis.call('HGETALL', takeovers)
  for i = 1, #pending, 2 do
    local t = decode(pending[i + 1])
    if t and t.by == lapsed then
      t.by = server
      redis.call('HSET', takeovers, pending[i], encode(t))
    end
  end
end
local pending = redis.call('HGETALL', takeovers)
for i = 1, #pending, 2 do
  local t = decode(pending[i + 1])
  if t and t.by == server then
    answer[#answer + 1] = encode({ server = pending[i], at = t.at, silentForMs = t.silentForMs, chatIds = t.chatIds })
  end
end
return answer`;

/**
 * The taker of a lapsed server has handed each of its duties on to be ended (or to end when its held window does).
 * KEYS: `takeovers`. ARGV: taker, lapsed server, at (its last renewal, as the takeover names it). → 1 when removed.
 */
export const TAKEN_OVER_LUA = `
local raw = redis.call('HGET', KEYS[1], ARGV[2])
if not raw then return 0 end
local ok, t = pcall(cjson.decode, raw)
if ok and type(t) == 'table' and t.by == ARGV[1] and t.at == ARGV[3] then
  redis.call('HDEL', KEYS[1], ARGV[2])
  return 1
end
return 0`;
