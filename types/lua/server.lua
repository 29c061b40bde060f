---@meta
-- The bridge's server exports and server events, for server scripts. Types: shared.lua.
--
-- A player is their server id. Exports also take it as a string (what GetPlayers() gives); an id of a player who
-- is not connected answers as off duty or refused, never an error.

---A player on duty, in GetOnDutyPlayers().
---@class BridgeOnDutyPlayer: BridgePlayerDuty
---@field source integer The player's server id.

---Why GetPlayerDepartments() has no departments.
---@alias BridgePlayerDepartmentsError
---| 'unknown_player' # no player with that id is connected
---| 'not_loaded' # the bridge holds no profile for the player yet
---| BridgeProfileErrorCode

---The result of GetPlayerDepartments(): the departments of the profile the bridge holds, without a panel call.
---@class BridgePlayerDepartments
---@field ok boolean
---@field departments BridgeDepartment[]
---@field error? BridgePlayerDepartmentsError

---**server** Whether the player is on duty.
---@param src integer|string The player's server id.
---@return boolean
function exports.bridge:IsPlayerOnDuty(src) end

---**server** The player's duty (only `onDuty = false` when off duty or not connected).
---@param src integer|string The player's server id.
---@return BridgePlayerDuty
function exports.bridge:GetPlayerDuty(src) end

---**server** Everyone on duty, or everyone on duty in one department.
---@param departmentId? integer
---@return BridgeOnDutyPlayer[]
function exports.bridge:GetOnDutyPlayers(departmentId) end

---**server** The departments of the profile the bridge holds for the player, without a panel call.
---@param src integer|string The player's server id.
---@return BridgePlayerDepartments
function exports.bridge:GetPlayerDepartments(src) end

---**server** For MDTs and admin tools: puts the player on or off duty, with the same checks and panel calls as the
---player's own request. Without `departmentId`, the player's only department is used. The export answers
---asynchronously: the call waits for the outcome, so make it from a thread or an event handler (a coroutine).
---@async
---@param src integer|string The player's server id.
---@param on boolean
---@param departmentId? integer
---@return BridgeDutyOutcome
function exports.bridge:SetPlayerDuty(src, on, departmentId) end

---**server** Fetches the player's profile from the panel again (as /dutyrefresh does). Waits for the panel: call it
---from a thread or an event handler (a coroutine).
---@async
---@param src integer|string The player's server id.
---@return BridgeProfilePayload
function exports.bridge:RefreshPlayer(src) end

---**server** How many players are on duty: in the department with this slug, or in all departments without one.
---Answers at once, without a panel call; `GlobalState['bridge:onDutyCount']` (BridgeOnDutyCount) has the same
---figures for scripts that read instead of call. A slug that names no department (or is not a string) counts 0.
---```lua
---if exports.bridge:GetOnDutyCount('lspd') < 3 then return end
---```
---@param slug? string A department slug (`lspd`); nil for every department.
---@return integer
function exports.bridge:GetOnDutyCount(slug) end

---**server** The same count over every server of the community: all the servers naming the same Redis and panel
---(`BRIDGE_REDIS_URL`). Without Redis, this server's own count (as GetOnDutyCount). Answers at once, without waiting
---for Redis; `GlobalState['bridge:communityOnDutyCount']` (BridgeOnDutyCount) has the same figures.
---```lua
---if exports.bridge:GetCommunityOnDutyCount('lspd') < 3 then return end
---```
---@param slug? string A department slug (`lspd`); nil for every department.
---@return integer
function exports.bridge:GetCommunityOnDutyCount(slug) end

---Server events: local events on the server, fired for every duty change whichever resource asked for it.
---Listen with AddEventHandler (they do not come from clients: no RegisterNetEvent).
---@alias BridgeServerEvent
---| 'bridge:server:playerOnDuty'
---| 'bridge:server:playerOffDuty'
---| 'bridge:server:playerRankChanged'
---| 'bridge:server:playerDepartmentRenamed'

---Handler of the server event `bridge:server:playerOnDuty`. `resumed` is true when the shift the player's game
---crashed or timed out in goes on (Config.ResumeWindowMs): the same shift at the panel, not a new one.
---```lua
---AddEventHandler('bridge:server:playerOnDuty', function(source, departmentId, rankId, resumed) end)
---```
---@alias BridgeOnPlayerOnDuty fun(source: integer, departmentId: integer, rankId: integer, resumed: boolean)

---Handler of the server event `bridge:server:playerOffDuty`; also fired when a player on duty disconnects (after
---they left) or the bridge stops. `resumable` is true when their game crashed or timed out and the panel keeps the
---shift for Config.ResumeWindowMs: it goes on if they come back in time (playerOnDuty with `resumed`).
---```lua
---AddEventHandler('bridge:server:playerOffDuty', function(source, reason, resumable) end)
---```
---@alias BridgeOnPlayerOffDuty fun(source: integer, reason: BridgeDutyEndReason, resumable: boolean)

---Handler of the server event `bridge:server:playerRankChanged`: a player on duty got another rank in the panel
---(found by the background revalidation or /dutyrefresh); they stay on duty with it.
---```lua
---AddEventHandler('bridge:server:playerRankChanged', function(source, departmentId, rankId) end)
---```
---@alias BridgeOnPlayerRankChanged fun(source: integer, departmentId: integer, rankId: integer)

---Handler of the server event `bridge:server:playerDepartmentRenamed`: the panel renamed the department a player is
---on duty in (same id; a new slug or name, found like a new rank); they stay on duty in it, and everything that shows
---the duty (ACE principals, counts, state bag, exports, job) has the new slug. `slug` is the new one, `previousSlug`
---the old one (the same when only the name changed).
---```lua
---AddEventHandler('bridge:server:playerDepartmentRenamed', function(source, departmentId, slug, previousSlug) end)
---```
---@alias BridgeOnPlayerDepartmentRenamed fun(source: integer, departmentId: integer, slug: string, previousSlug: string)
