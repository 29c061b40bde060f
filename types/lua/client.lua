---@meta
-- The bridge's client exports and client events, for client scripts. Types: shared.lua.

---The result of GetDutyOptions(). When `ok` is false, `error` says why (`loading` until the profile arrived) and
---`message` is the text to show the player.
---@class BridgeDutyOptions
---@field ok boolean
---@field departments BridgeDutyOptionDepartment[]
---@field selectedDeptId? integer The department set with `setActive` (or the current duty's), if any.
---@field onDuty boolean
---@field error? BridgeProfileErrorCode|'loading'
---@field message? string

---A department in GetDutyOptions(), with how a menu selects it.
---`setActive` marks this department as the one UpdatePlayerDuty(true) goes on duty for. It arrives as a function
---reference (a callable table): call it with a dot, `department.setActive()`.
---@class BridgeDutyOptionDepartment: BridgeDepartment
---@field setActive fun(): boolean Marks this department for UpdatePlayerDuty(true); call it with a dot.

---**client** Whether the player is on duty.
---@return boolean
function exports.bridge:IsPlayerOnDuty() end

---**client** The player's departments and duty, for a menu. Ask again each time the menu opens: departments and
---ranks change with the player's roles.
---@return BridgeDutyOptions
function exports.bridge:GetDutyOptions() end

---**client** Goes on duty (for the department set with `setActive`, or the player's only one) or off duty. A player
---with several departments and none set gets `no_department_selected`. The bridge shows the outcome to the player
---itself.
---@param status boolean true: on duty, false: off duty.
---@param callback? fun(outcome: BridgeDutyOutcome) Receives the outcome once the server decided.
---@return boolean sent True when the request was sent.
function exports.bridge:UpdatePlayerDuty(status, callback) end

---Client events: sent by the bridge's server to the player's client. Listen with RegisterNetEvent.
---@alias BridgeClientEvent
---| 'bridge:client:profile'
---| 'bridge:client:deptData'
---| 'bridge:client:offDuty'

---Handler of the client event `bridge:client:profile`: the player's departments, sent when they load or are
---refreshed.
---```lua
---RegisterNetEvent('bridge:client:profile', function(profile) end)
---```
---@alias BridgeOnProfile fun(profile: BridgeProfilePayload)

---Handler of the client event `bridge:client:deptData`: the department the player went on duty for (again when
---their rank changes).
---```lua
---RegisterNetEvent('bridge:client:deptData', function(department) end)
---```
---@alias BridgeOnDeptData fun(department: BridgeDeptDataPayload)

---Handler of the client event `bridge:client:offDuty`: the player went off duty, and why.
---```lua
---RegisterNetEvent('bridge:client:offDuty', function(info) end)
---```
---@alias BridgeOnOffDuty fun(info: BridgeOffDutyPayload)
