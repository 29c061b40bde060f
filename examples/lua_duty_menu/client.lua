-- A duty menu as a chat command, on the bridge's three client exports:
--   /duty        lists the player's departments
--   /duty <n>    goes on duty for department n of that list
--   /duty off    goes off duty
-- The bridge shows the outcome of every duty change as a notification, so the menu only lists and asks.

local function say(text)
  TriggerEvent('chat:addMessage', { args = { 'Duty', text } })
end

local function listDepartments(options)
  if #options.departments == 0 then
    say('You are not a member of any department.')
    return
  end
  for index, department in ipairs(options.departments) do
    local current = options.onDuty and options.selectedDeptId == department.id
    say(('%d. %s, %s%s'):format(index, department.name, department.rank.name, current and ' (on duty)' or ''))
  end
  say('/duty <number> goes on duty, /duty off goes off duty.')
end

local function goOnDuty(options, choice)
  local department = options.departments[tonumber(choice)]
  if not department then
    say(('There is no department %s; /duty lists them.'):format(choice))
    return
  end
  -- setActive arrives as a function reference (a table you can call): call it with a dot, not a colon.
  department.setActive()
  exports.bridge:UpdatePlayerDuty(true, function(outcome)
    -- The player has already been told; a menu with its own state would update it here.
    if outcome.ok then
      print(('on duty in department %d as rank %d'):format(outcome.departmentId, outcome.rankId))
    end
  end)
end

RegisterCommand('duty', function(_, args)
  -- Always ask for fresh options: departments and ranks change when the player's roles do.
  local options = exports.bridge:GetDutyOptions()
  if not options.ok then
    say(options.message)
    return
  end

  local choice = args[1]
  if choice == nil then
    listDepartments(options)
  elseif choice == 'off' then
    exports.bridge:UpdatePlayerDuty(false)
  else
    goOnDuty(options, choice)
  end
end, false)

TriggerEvent('chat:addSuggestion', '/duty', 'List your departments, or go on or off duty', {
  { name = 'department', help = 'a number from the list, or off' },
})
