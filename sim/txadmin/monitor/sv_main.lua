-- Stub of txAdmin's monitor resource, written from tabarra/txAdmin v8.0.1 (d8c5515b):
--
-- resource/sv_main.lua
--   txaEvent (a console command; refused unless source is 0 and no resource invoked it) decodes its second argument
--   as JSON, with U+037E turned back into ';' (replaceSemicolon), fires the local server event
--   `txAdmin:events:<name>` with that table as its only argument, then runs txAdmin's own handler:
--   - serverShuttingDown: refuse new connections, DropPlayer every player with '[txAdmin] ' .. message;
--   - playerKicked: Wait(0), then DropPlayer the target, or every player for target -1, with
--     '[txAdmin] ' .. dropMessage;
--   - playerBanned: Wait(0), then DropPlayer every player who has one of targetIds, with '[txAdmin] ' .. kickMessage;
--   - scheduledRestart and the rest only show announcements in game, which the stub leaves out.
--   A name with no handler in TX_EVENT_HANDLERS is refused with an error and fires nothing.
-- core/modules/FxRunner/index.ts, sendEvent: the event reaches the server as that console command, written to
--   FXServer's stdin by txAdmin's core (sim/txadmin/tx-admin.ts sends it the same way).
if GetCurrentResourceName() ~= 'monitor' then
  print('^1This resource should not be installed separately, it already comes with fxserver.')
  return
end

local function txPrint(text)
  print('[txAdmin] ' .. text)
end

local function replaceSemicolon(text)
  local replaced = string.gsub(text, utf8.char(0x037E), ';')
  return replaced
end

local shuttingDown = false
local handlers = {
  announcement = false,
  scheduledRestart = false,
  scheduledRestartSkipped = false,
  playerDirectMessage = false,
  playerWarned = false,
  playerHealed = false,
  actionRevoked = false,
}

handlers.playerKicked = function(eventData)
  Wait(0)
  if
    type(eventData.target) ~= 'number'
    or type(eventData.reason) ~= 'string'
    or type(eventData.dropMessage) ~= 'string'
  then
    return txPrint('[playerKicked] invalid eventData')
  end
  if eventData.target == -1 then
    txPrint('Kicking everyone: ' .. eventData.reason)
    for _, pid in pairs(GetPlayers()) do
      DropPlayer(pid, '[txAdmin] ' .. eventData.dropMessage)
    end
  else
    txPrint('Kicking: #' .. eventData.target .. ': ' .. eventData.reason)
    DropPlayer(eventData.target, '[txAdmin] ' .. eventData.dropMessage)
  end
end

handlers.playerBanned = function(eventData)
  Wait(0)
  local kickCount = 0
  for _, playerID in pairs(GetPlayers()) do
    local identifiers = GetPlayerIdentifiers(playerID)
    local found = false
    for _, searchIdentifier in pairs(eventData.targetIds) do
      if found then break end
      for _, playerIdentifier in pairs(identifiers) do
        if searchIdentifier == playerIdentifier then
          txPrint('[handleBanEvent] Kicking #' .. playerID .. ': ' .. eventData.reason)
          kickCount = kickCount + 1
          DropPlayer(playerID, '[txAdmin] ' .. eventData.kickMessage)
          found = true
          break
        end
      end
    end
  end
  if kickCount == 0 then
    txPrint('[handleBanEvent] No players found to kick')
  end
end

handlers.serverShuttingDown = function(eventData)
  txPrint('Server shutting down. Kicking all players.')
  shuttingDown = true
  for _, serverID in pairs(GetPlayers()) do
    DropPlayer(serverID, '[txAdmin] ' .. eventData.message)
  end
end

RegisterCommand('txaEvent', function(source, args)
  if type(args[1]) ~= 'string' or type(args[2]) ~= 'string' then
    return txPrint('[txaEvent] invalid argument types')
  end
  if source ~= 0 or GetInvokingResource() ~= nil then
    return txPrint('[txaEvent] unexpected source or invoking resource')
  end
  local eventName = args[1]
  local handler = handlers[eventName]
  if handler == nil then
    return txPrint('[txaEvent] No event handler exists for "' .. eventName .. '" event')
  end
  local eventData = json.decode(replaceSemicolon(args[2]))
  if type(eventData) ~= 'table' then
    return txPrint('[txaEvent] invalid eventData')
  end
  TriggerEvent('txAdmin:events:' .. eventName, eventData)
  if handler ~= false then
    handler(eventData)
  end
end, true)

AddEventHandler('playerConnecting', function(name, setKickReason)
  if shuttingDown then
    CancelEvent()
    setKickReason('[txAdmin] Server is shutting down, try again in a few seconds.')
  end
end)
