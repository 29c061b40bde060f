-- Who goes on and off duty, in the server console: the place for a dispatch log or a webhook.
-- The bridge fires these server events for every duty change, whichever resource asked for it.

local onDuty = {}

AddEventHandler('bridge:server:playerOnDuty', function(playerId, departmentId, rankId)
  -- The name is kept now: when a player disconnects on duty, the off-duty event comes after they left.
  onDuty[playerId] = { name = GetPlayerName(playerId), startedAt = GetGameTimer() }
  print(('%s is on duty in department %d as rank %d'):format(onDuty[playerId].name, departmentId, rankId))
end)

AddEventHandler('bridge:server:playerOffDuty', function(playerId)
  local duty = onDuty[playerId]
  if not duty then
    return
  end
  onDuty[playerId] = nil
  local minutes = (GetGameTimer() - duty.startedAt) // 60000
  print(('%s is off duty after %d minute(s)'):format(duty.name, minutes))
end)
