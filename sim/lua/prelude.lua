-- The CitizenFX Lua runtime as the simulator reproduces it (fivem-runtime.md §1.6, §2, §7): threads and Wait,
-- events with `source`, exports through __cfx_export_ events, function references, state bags, json and msgpack.
-- Modelled on citizen/scripting/lua/scheduler.lua; the host side (natives, routing, msgpack) is in lua-runtime.ts
-- and reaches this file only through the `cfx` table passed as the chunk's argument.
local cfx = ...
local isServer = cfx.isServer

local type, tostring, tonumber, pairs, select, error = type, tostring, tonumber, pairs, select, error
local rawget, rawset, setmetatable, getmetatable = rawget, rawset, setmetatable, getmetatable
local co_create, co_resume, co_status, co_running, co_yield, co_isyieldable, co_close =
  coroutine.create, coroutine.resume, coroutine.status, coroutine.running, coroutine.yield,
  coroutine.isyieldable, coroutine.close
local table_unpack, table_concat = table.unpack, table.concat
local traceback = debug.traceback
local huge = math.huge

local trace, scriptError, now, wake = cfx.trace, cfx.scriptError, cfx.now, cfx.wake

-- os.time and os.date read the machine's wall clock, which sim.jumpWallClock moves (wasm's own time() would read
-- the test process's clock).
local wallNow, os_time, os_date = cfx.wallNow, os.time, os.date
function os.time(t)
  if t == nil then return wallNow() // 1000 end
  return os_time(t)
end
function os.date(format, t)
  return os_date(format, t or wallNow() // 1000)
end

-- os.exit would end the whole test process (wasm's exit is the host's); in FXServer it takes the server down.
function os.exit(code)
  error(('os.exit(%s) called: the server would stop here'):format(tostring(code)), 2)
end

Citizen = {}

function Citizen.Trace(s)
  trace(tostring(s))
end

function print(...)
  local n = select('#', ...)
  local parts = {}
  for i = 1, n do
    parts[i] = tostring((select(i, ...)))
  end
  trace(table_concat(parts, '\t') .. '\n')
end

local function reportError(co, err)
  scriptError('^1SCRIPT ERROR: ' .. tostring(err) .. '^7\n' .. traceback(co, nil, 0))
end

-- Natives resolve lazily through _G, like the runtime's own native loader; names that are not natives stay nil.
local notNative = {}
local bindNative = cfx.bindNative
setmetatable(_G, {
  __index = function(t, k)
    if type(k) ~= 'string' or notNative[k] then
      return nil
    end
    local f = bindNative(k)
    if f then
      rawset(t, k, f)
      return f
    end
    notNative[k] = true
    return nil
  end,
})

---------------------------------------------------------------------------------------------------------------
-- Promises (the subset of citizen's deferred.lua that Citizen.Await and scripts use)
---------------------------------------------------------------------------------------------------------------
local PENDING, RESOLVED, REJECTED = 0, 3, 4
promise = {}
promise.__index = promise

local function settle(p, state, value)
  if p.state ~= PENDING then
    return
  end
  p.state, p.value = state, value
  local queue = p.queue
  p.queue = nil
  for i = 1, #queue do
    queue[i]()
  end
end

function promise.new(executor)
  local p = setmetatable({ state = PENDING, queue = {} }, promise)
  if executor then
    executor(function(v)
      p:resolve(v)
    end, function(e)
      p:reject(e)
    end)
  end
  return p
end

function promise:resolve(value)
  if type(value) == 'table' and getmetatable(value) == promise then
    value:next(function(v)
      settle(self, RESOLVED, v)
    end, function(e)
      settle(self, REJECTED, e)
    end)
    return
  end
  settle(self, RESOLVED, value)
end

function promise:reject(err)
  settle(self, REJECTED, err)
end

function promise:next(onResolved, onRejected)
  local nextP = promise.new()
  local function run()
    local handler = self.state == RESOLVED and onResolved or onRejected
    if handler then
      local ok, result = pcall(handler, self.value)
      if ok then
        nextP:resolve(result)
      else
        nextP:reject(result)
      end
    elseif self.state == RESOLVED then
      nextP:resolve(self.value)
    else
      nextP:reject(self.value)
    end
  end
  if self.state == PENDING then
    self.queue[#self.queue + 1] = run
  else
    run()
  end
  return nextP
end

function promise.all(list)
  local p = promise.new()
  local results, remaining = {}, #list
  if remaining == 0 then
    p:resolve(results)
  end
  for i, item in ipairs(list) do
    item:next(function(v)
      results[i] = v
      remaining = remaining - 1
      if remaining == 0 then
        p:resolve(results)
      end
    end, function(e)
      p:reject(e)
    end)
  end
  return p
end

---------------------------------------------------------------------------------------------------------------
-- Threads: Citizen.CreateThread / Wait / SetTimeout / Await
---------------------------------------------------------------------------------------------------------------
local threads = {}
local byCo = setmetatable({}, { __mode = 'k' })
local knownWake = huge

local function schedule(rec, at)
  rec.wake = at
  if at < knownWake then
    knownWake = at
    wake(at)
  end
end

local function step(rec, ...)
  local co = rec.co
  local ok, err = co_resume(co, ...)
  if not ok then
    rec.dead = true
    reportError(co, err)
    co_close(co)
    return false
  end
  if co_status(co) == 'dead' then
    rec.dead = true
    return false
  end
  return true
end

local function newThread(fn, at)
  local rec = { co = co_create(fn), wake = false }
  byCo[rec.co] = rec
  threads[#threads + 1] = rec
  if at then
    schedule(rec, at)
  end
  return rec
end

function Citizen.CreateThread(fn)
  newThread(fn, 0)
end

-- Runs `fn` at once in its own thread; returns true when it waited (is still alive).
function Citizen.CreateThreadNow(fn)
  return step(newThread(fn, nil))
end

function Citizen.SetTimeout(ms, fn)
  newThread(fn, now() + (tonumber(ms) or 0))
end

function Citizen.Wait(ms)
  if not co_isyieldable() then
    error('attempt to yield from outside a coroutine', 2)
  end
  local rec = byCo[co_running()]
  if rec then
    schedule(rec, now() + (tonumber(ms) or 0))
  end
  co_yield()
end

function Citizen.Await(p)
  if not co_isyieldable() then
    error(
      'Current execution context is not in the scheduler, you should use CreateThread / SetTimeout or Event system (AddEventHandler) to be able to Await',
      2
    )
  end
  if p.state == PENDING then
    local rec = byCo[co_running()]
    local function reattach()
      if rec and not rec.dead then
        schedule(rec, 0)
      end
    end
    p:next(reattach, reattach)
    co_yield()
  end
  if p.state == REJECTED then
    error(p.value, 2)
  end
  return p.value
end

Wait = Citizen.Wait
CreateThread = Citizen.CreateThread
SetTimeout = Citizen.SetTimeout

local function tick(t)
  local list = threads
  threads = {}
  local due = {}
  for i = 1, #list do
    local rec = list[i]
    if not rec.dead then
      threads[#threads + 1] = rec
      if rec.wake and rec.wake <= t then
        due[#due + 1] = rec
      end
    end
  end
  knownWake = -huge -- threads scheduled while resuming are reported again below
  for i = 1, #due do
    local rec = due[i]
    if not rec.dead and rec.wake and rec.wake <= t then
      rec.wake = false
      step(rec)
    end
  end
  local nextWake = huge
  for i = 1, #threads do
    local rec = threads[i]
    if not rec.dead and rec.wake and rec.wake < nextWake then
      nextWake = rec.wake
    end
  end
  knownWake = nextWake
  return nextWake
end

---------------------------------------------------------------------------------------------------------------
-- Events
---------------------------------------------------------------------------------------------------------------
local eventHandlers = {}
local eventKey = 10

function AddEventHandler(eventName, eventRoutine)
  local entry = eventHandlers[eventName]
  if not entry then
    entry = {}
    eventHandlers[eventName] = entry
  end
  if not entry.handlers then
    entry.handlers = {}
  end
  eventKey = eventKey + 1
  entry.handlers[eventKey] = eventRoutine
  RegisterResourceAsEventHandler(eventName)
  return { key = eventKey, name = eventName }
end

function RemoveEventHandler(eventData)
  if not eventData or not eventData.key or not eventData.name then
    error('Invalid event data passed to RemoveEventHandler()', 2)
  end
  eventHandlers[eventData.name].handlers[eventData.key] = nil
end

function RegisterNetEvent(eventName, cb)
  if eventName ~= '__cfx_internal:commandFallback' then
    local entry = eventHandlers[eventName]
    if not entry then
      entry = {}
      eventHandlers[eventName] = entry
    end
    entry.safeForNet = true
  end
  if cb then
    return AddEventHandler(eventName, cb)
  end
end

local triggerEvent = cfx.trigger
function TriggerEvent(eventName, ...)
  triggerEvent(eventName, ...)
end

if isServer then
  RegisterServerEvent = RegisterNetEvent
  local triggerClient, triggerLatentClient = cfx.triggerClient, cfx.triggerLatentClient
  function TriggerClientEvent(eventName, playerId, ...)
    triggerClient(eventName, playerId, ...)
  end
  function TriggerLatentClientEvent(eventName, playerId, bps, ...)
    triggerLatentClient(eventName, playerId, bps, ...)
  end

  -- The natives hand these lists out as a count and an entry per index from 0; scripts get a Lua list.
  local function listOf(count, entryAt)
    local t = {}
    for i = 0, count - 1 do
      t[#t + 1] = entryAt(i)
    end
    return t
  end

  function GetPlayerIdentifiers(player)
    return listOf(GetNumPlayerIdentifiers(player), function(i) return GetPlayerIdentifier(player, i) end)
  end

  function GetPlayerTokens(player)
    return listOf(GetNumPlayerTokens(player), function(i) return GetPlayerToken(player, i) end)
  end

  function GetPlayers()
    return listOf(GetNumPlayerIndices(), GetPlayerFromIndex)
  end
else
  local triggerServer, triggerLatentServer = cfx.triggerServer, cfx.triggerLatentServer
  function TriggerServerEvent(eventName, ...)
    triggerServer(eventName, ...)
  end
  function TriggerLatentServerEvent(eventName, bps, ...)
    triggerLatentServer(eventName, bps, ...)
  end
end

local function onEvent(eventName, data, eventSource)
  local lastSource = rawget(_G, 'source')
  rawset(_G, 'source', eventSource)
  local entry = eventHandlers[eventName]
  if entry and entry.handlers then
    if eventSource:sub(1, 3) == 'net' then
      if not entry.safeForNet then
        trace('event ' .. eventName .. ' was not safe for net\n')
        rawset(_G, 'source', lastSource)
        return
      end
      rawset(_G, 'source', tonumber(eventSource:sub(5)))
    elseif isServer and eventSource:sub(1, 12) == 'internal-net' then
      rawset(_G, 'source', tonumber(eventSource:sub(14)))
    end
    if data == nil then
      data = {}
    end
    if type(data) == 'table' then
      for _, handler in pairs(entry.handlers) do
        local fn = handler
        local mt = getmetatable(handler)
        if mt and mt.__call then
          fn = mt.__call
        end
        if type(fn) == 'function' then
          Citizen.CreateThreadNow(function()
            handler(table_unpack(data))
          end)
        end
      end
    end
  end
  rawset(_G, 'source', lastSource)
end

---------------------------------------------------------------------------------------------------------------
-- Function references
---------------------------------------------------------------------------------------------------------------
local invokeRef, makeRef, delRef = cfx.invokeRef, cfx.makeRef, cfx.delRef

local funcref_mt = {
  __gc = function(t)
    delRef(rawget(t, '__cfx_functionReference'))
  end,
  __index = function()
    error('Cannot index a funcref', 2)
  end,
  __newindex = function()
    error('Cannot set indexes on a funcref', 2)
  end,
  __call = function(t, ...)
    local rvs = invokeRef(rawget(t, '__cfx_functionReference'), ...)
    -- A callee that waited answers with an async handle; block on it when this caller can yield.
    if rvs and type(rvs[1]) == 'table' and rawget(rvs[1], '__cfx_async_retval') and co_isyieldable() then
      local p = promise.new()
      rvs[1].__cfx_async_retval(function(r, e)
        if r then
          p:resolve(r)
        elseif e then
          p:reject(e)
        end
      end)
      return table_unpack(Citizen.Await(p))
    end
    if not rvs then
      error()
    end
    return table_unpack(rvs)
  end,
}

function Citizen.GetFunctionReference(func)
  if type(func) == 'function' then
    return makeRef(func)
  elseif type(func) == 'table' and rawget(func, '__cfx_functionReference') then
    return makeRef(function(...)
      return func(...)
    end)
  end
  return nil
end

local function onCallRef(ref, args)
  local retvals, err = false, nil
  local holder = {}
  local waited = Citizen.CreateThreadNow(function()
    local ok, result = xpcall(function()
      retvals = { ref(table_unpack(args)) }
    end, function(e)
      return '^1SCRIPT ERROR: ' .. tostring(e) .. '^7\n' .. traceback(nil, 2)
    end)
    if not ok then
      err = result or ''
    end
    if holder.cb then
      holder.cb(retvals, err)
    elseif err then
      scriptError(err)
    end
  end)
  if not waited then
    if err then
      return nil
    end
    return retvals
  end
  return {
    {
      __cfx_async_retval = function(rvcb)
        holder.cb = rvcb
      end,
    },
  }
end

---------------------------------------------------------------------------------------------------------------
-- Exports
---------------------------------------------------------------------------------------------------------------
local function exportEvent(resource, name)
  return ('__cfx_export_%s_%s'):format(resource, name)
end

local exportsCache = {}
local exportKey = isServer and 'server_export' or 'export'

do
  local resource = GetCurrentResourceName()
  for i = 0, (GetNumResourceMetadata(resource, exportKey) or 0) - 1 do
    local exportName = GetResourceMetadata(resource, exportKey, i)
    AddEventHandler(exportEvent(resource, exportName), function(setCB)
      if _G[exportName] then
        setCB(_G[exportName])
      end
    end)
  end
end

local function lazyStopHandler()
  AddEventHandler(('on%sResourceStop'):format(isServer and 'Server' or 'Client'), function(resource)
    exportsCache[resource] = {}
  end)
  lazyStopHandler = function() end
end

local function prefixNewlines(str, prefix)
  str = tostring(str)
  if #str == 0 then
    return str
  end
  return prefix .. str:gsub('\n(.)', '\n' .. prefix .. '%1')
end

local function exportProcessResult(resource, exportName, status, ...)
  if not status then
    local result = tostring((select(1, ...)))
    if result:len() > 2048 then
      result = result:sub(1, 1024) .. '\n... [large output partially truncated] ...\n' .. result:sub(-1024)
    end
    error(
      ('\n^5 An error occurred while calling export `%s` in resource `%s`:\n%s\n^5 ---'):format(
        exportName,
        resource,
        prefixNewlines(result, '  ')
      ),
      2
    )
  end
  return ...
end

exports = setmetatable({}, {
  __index = function(_, resource)
    if resource == 'txAdmin' then
      resource = 'monitor'
    end
    return setmetatable({}, {
      __index = function(_, k)
        lazyStopHandler()
        local cache = exportsCache[resource]
        if not cache then
          cache = {}
          exportsCache[resource] = cache
        end
        if not cache[k] then
          TriggerEvent(exportEvent(resource, k), function(exportData)
            cache[k] = exportData
          end)
          if not cache[k] then
            error('No such export ' .. tostring(k) .. ' in resource ' .. tostring(resource), 2)
          end
        end
        return function(_self, ...)
          return exportProcessResult(resource, k, pcall(cache[k], ...))
        end
      end,
      __newindex = function()
        error('cannot set values on an export resource', 2)
      end,
    })
  end,
  __newindex = function()
    error('cannot set values on exports', 2)
  end,
  __call = function(_, exportName, func)
    AddEventHandler(exportEvent(GetCurrentResourceName(), exportName), function(setCB)
      setCB(func)
    end)
  end,
})

---------------------------------------------------------------------------------------------------------------
-- State bags, Player, Entity
---------------------------------------------------------------------------------------------------------------
local sbGet, sbSet = cfx.sbGet, cfx.sbSet

local function NewStateBag(bagName)
  return setmetatable({}, {
    __index = function(_, key)
      if key == 'set' then
        return function(_, k, v, replicated)
          sbSet(bagName, k, v, replicated)
        end
      end
      return sbGet(bagName, key)
    end,
    __newindex = function(_, key, value)
      sbSet(bagName, key, value, isServer)
    end,
  })
end

GlobalState = NewStateBag('global')

local playerMT = {
  __index = function(t, k)
    if k == 'state' then
      local pid = rawget(t, '__data')
      if pid == -1 then
        pid = GetPlayerServerId(PlayerId())
      end
      return NewStateBag(('player:%d'):format(pid))
    end
    return nil
  end,
  __newindex = function()
    error('Setting values on Player is not supported at this time.', 2)
  end,
}

function Player(ent)
  if type(ent) == 'number' or type(ent) == 'string' then
    return setmetatable({ __data = tonumber(ent) }, playerMT)
  end
  return ent
end

local entityMT = {
  __index = function(t, k)
    if k == 'state' then
      return NewStateBag(('entity:%d'):format(rawget(t, '__data')))
    end
    return nil
  end,
  __newindex = function()
    error('Setting values on Entity is not supported at this time.', 2)
  end,
}

function Entity(ent)
  if type(ent) == 'number' then
    return setmetatable({ __data = ent }, entityMT)
  end
  return ent
end

if not isServer then
  LocalPlayer = Player(-1)
end

---------------------------------------------------------------------------------------------------------------
-- json, msgpack, vectors
---------------------------------------------------------------------------------------------------------------
local jsonEncode, jsonDecode = cfx.jsonEncode, cfx.jsonDecode
json = {
  encode = function(value, options)
    return jsonEncode(value, options and options.indent or false, options and options.sort_keys or false)
  end,
  decode = function(s)
    return jsonDecode(s)
  end,
}

msgpack = { pack = cfx.pack, unpack = cfx.unpack, pack_args = cfx.pack }

local function vecMeta(kind, names)
  local mt = { __cfx_vec = kind }
  local n = #names
  local function new(values)
    local v = {}
    for i = 1, n do
      v[names[i]] = values[i] + 0.0
    end
    return setmetatable(v, mt)
  end
  local function combine(a, b, op)
    local values = {}
    for i = 1, n do
      local x = type(a) == 'number' and a or a[names[i]]
      local y = type(b) == 'number' and b or b[names[i]]
      values[i] = op(x, y)
    end
    return new(values)
  end
  mt.__add = function(a, b)
    return combine(a, b, function(x, y)
      return x + y
    end)
  end
  mt.__sub = function(a, b)
    return combine(a, b, function(x, y)
      return x - y
    end)
  end
  mt.__mul = function(a, b)
    return combine(a, b, function(x, y)
      return x * y
    end)
  end
  mt.__div = function(a, b)
    return combine(a, b, function(x, y)
      return x / y
    end)
  end
  mt.__unm = function(a)
    return combine(a, -1, function(x, y)
      return x * y
    end)
  end
  mt.__eq = function(a, b)
    for i = 1, n do
      if a[names[i]] ~= b[names[i]] then
        return false
      end
    end
    return true
  end
  mt.__len = function(a)
    local sum = 0
    for i = 1, n do
      sum = sum + a[names[i]] ^ 2
    end
    return math.sqrt(sum)
  end
  mt.__tostring = function(a)
    local parts = {}
    for i = 1, n do
      parts[i] = tostring(a[names[i]])
    end
    return ('%s(%s)'):format(kind == 5 and 'quat' or 'vector' .. n, table_concat(parts, ', '))
  end
  return mt, function(...)
    return new({ ... })
  end
end

local vec2mt, vec3mt, vec4mt, quatmt
vec2mt, vector2 = vecMeta(2, { 'x', 'y' })
vec3mt, vector3 = vecMeta(3, { 'x', 'y', 'z' })
vec4mt, vector4 = vecMeta(4, { 'x', 'y', 'z', 'w' })
quatmt, quat = vecMeta(5, { 'x', 'y', 'z', 'w' })
vec = vector3

---------------------------------------------------------------------------------------------------------------
-- Host entry points
---------------------------------------------------------------------------------------------------------------
local function runChunk(chunk)
  return xpcall(chunk, function(e)
    return traceback(tostring(e), 2)
  end)
end

return {
  event = onEvent,
  callRef = onCallRef,
  tick = tick,
  run = runChunk,
  funcrefMt = funcref_mt,
  vectorMts = { vec2mt, vec3mt, vec4mt, quatmt },
}
