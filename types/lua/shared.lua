---@meta
-- LuaLS (sumneko) definitions of the bridge, for resources written in Lua: the payloads and values both sides see.
-- client.lua and server.lua add each side's exports and events. Nothing here runs: add the folder to
-- `workspace.library` (see the bridge's README).
--
-- Every value reaches Lua through msgpack, so a JS `null` arrives as nil: fields the TypeScript types give as
-- `T | null` are optional (`T?`) here.

---A player's rank within a department.
---@class BridgeRank
---@field id integer
---@field name string

---A department as the game sees it, with the player's rank there.
---@class BridgeDepartment
---@field id integer
---@field slug string
---@field name string
---@field rank BridgeRank

---Why a player has no usable profile.
---@alias BridgeProfileErrorCode
---| 'not_configured' # the bridge has no panel URL or token
---| 'no_identifier' # the player has no chat identifier (or is not connected)
---| 'malformed_identifier' # the chat identifier is not 18-19 digits
---| 'not_registered' # the panel does not know the player
---| 'unauthorized' # the panel refused the bridge's token
---| 'panel_unavailable' # the panel could not be reached

---Why a player went off duty, as their client hears it (a player who disconnected has no client left to tell).
---@alias BridgeOffDutyReason
---| 'request' # the player (or a menu for them) asked
---| 'department_removed' # the player lost the department in the panel
---| 'account_removed' # the panel no longer knows the player's chat account (deleted or banned there)
---| 'resource_stop' # the bridge stopped
---| 'admin' # an admin or a server export took them off duty
---| 'replaced' # the same chat account went on duty in another session, here or on another server of the community (one duty per account)
---| 'superseded' # after a fault between the servers (Redis), the community settled the account's duty on another server
---| 'server_shutdown' # txAdmin is stopping or restarting the server (or kicking everyone)
---| 'kicked' # kicked through txAdmin
---| 'banned' # banned through txAdmin

---Why a duty ended, as the server knows it: every BridgeOffDutyReason, or `dropped` for a player who disconnected.
---@alias BridgeDutyEndReason BridgeOffDutyReason|'dropped'

---Why a duty change was refused.
---@alias BridgeDutyErrorCode
---| 'not_configured'
---| 'no_departments'
---| 'no_department_selected'
---| 'not_member'
---| 'profile_unavailable'
---| 'panel_refused'
---| 'panel_unavailable'
---| 'too_many_requests'
---| 'invalid_request'

---The player's departments, or why there are none. When `ok` is true, `chatId`, `departments` and `fetchedAt` are
---set; when false, `error` and `message`.
---@class BridgeProfilePayload
---@field ok boolean
---@field chatId? string
---@field departments? BridgeDepartment[]
---@field fetchedAt? integer Unix epoch milliseconds of the panel's answer.
---@field error? BridgeProfileErrorCode
---@field message? string The text to show the player.

---The department the player went on duty for, with what the panel holds for it.
---@class BridgeDeptDataPayload
---@field departmentId integer
---@field slug string
---@field name string
---@field rank BridgeRank
---@field data any The department's data exactly as the panel sent it, unchecked (`{}` when it sent none); the mock panel sends a BridgeMockDepartmentData. Check what you read.
---@field resumed? true The shift the player had before their game crashed or timed out goes on (Config.ResumeWindowMs).

---@class BridgeOffDutyPayload
---@field departmentId integer The department the player left.
---@field reason BridgeOffDutyReason

---What a duty change ended in. When `ok` is true, the new duty (`changed` is false when it was already so);
---when false, `error` and `message`.
---@class BridgeDutyOutcome
---@field ok boolean
---@field changed? boolean
---@field onDuty? boolean
---@field departmentId? integer
---@field rankId? integer
---@field since? integer Unix epoch milliseconds when the current duty began.
---@field error? BridgeDutyErrorCode
---@field message? string The text to show the player.

---A player's duty as the server exports and the `bridge:duty` state bag show it. Off duty: only `onDuty` (false).
---@class BridgePlayerDuty
---@field onDuty boolean
---@field departmentId? integer
---@field departmentSlug? string
---@field rankId? integer
---@field since? integer Unix epoch milliseconds when the current duty began.

---The replicated state bag value `bridge:duty`, written by the bridge only (a client's own write is put back).
---Absent until the player's first duty state. Read it on either side without an export:
---```lua
----- server
---local duty = Player(source).state['bridge:duty'] --[[@as BridgeDutyStateBag?]]
----- client
---local duty = LocalPlayer.state['bridge:duty'] --[[@as BridgeDutyStateBag?]]
---```
---@class BridgeDutyStateBag: BridgePlayerDuty

---A handler for changes of the `bridge:duty` state bag:
---```lua
---AddStateBagChangeHandler('bridge:duty', nil, function(bagName, key, value) end)
---```
---@alias BridgeDutyStateBagHandler fun(bagName: string, key: 'bridge:duty', value: BridgeDutyStateBag?, reserved: integer, replicated: boolean)

---The replicated `GlobalState` value `bridge:onDutyCount`, on the server and every client: players on duty per
---department slug (a department nobody is on duty in is absent) and `total`. Set when the bridge starts and after
---every change, so a script reads it instead of calling an export every frame:
---```lua
---local police = (GlobalState['bridge:onDutyCount'] or {}).lspd or 0
---if police < 3 then return end -- a robbery needs at least 3 LSPD officers on duty
---```
---@class BridgeOnDutyCount
---@field total integer Everyone on duty, in all departments.
---@field [string] integer Players on duty in the department with that slug.

---A handler for changes of the on-duty counts:
---```lua
---AddStateBagChangeHandler('bridge:onDutyCount', 'global', function(bagName, key, value) end)
---```
---@alias BridgeOnDutyCountHandler fun(bagName: 'global', key: 'bridge:onDutyCount', value: BridgeOnDutyCount?, reserved: integer, replicated: boolean)

---The replicated `GlobalState` value `bridge:communityOnDutyCount` (a BridgeOnDutyCount): the same counts summed over
---every server of the community (`BRIDGE_REDIS_URL`); this server's own without Redis. A server that crashed stops
---counting within 6 seconds.
---```lua
---local police = (GlobalState['bridge:communityOnDutyCount'] or {}).lspd or 0
---AddStateBagChangeHandler('bridge:communityOnDutyCount', 'global', function(bagName, key, value) end)
---```
---@alias BridgeCommunityOnDutyCountHandler fun(bagName: 'global', key: 'bridge:communityOnDutyCount', value: BridgeOnDutyCount?, reserved: integer, replicated: boolean)

---@class BridgeDepartmentVehicle
---@field model string
---@field label string

---A clothing component (slot = component id) or prop (slot = anchor id).
---@class BridgeClothingPiece
---@field slot integer
---@field drawable integer
---@field texture integer

---@class BridgeDepartmentUniform
---@field name string
---@field pedModel? 'mp_m_freemode_01'|'mp_f_freemode_01' The freemode ped the uniform is made for; absent when it fits both.
---@field components BridgeClothingPiece[]
---@field props BridgeClothingPiece[]

---@class BridgeDepartmentEquipment
---@field item string
---@field label string
---@field count integer

---Department data as the mock panel sends it. A real panel may send anything: check fields before use.
---@class BridgeMockDepartmentData
---@field callsignPrefix? string
---@field vehicles BridgeDepartmentVehicle[]
---@field uniforms BridgeDepartmentUniform[]
---@field equipment BridgeDepartmentEquipment[]
---@field [string] any

---FiveM's `exports` global: `exports.<resource>` is that resource's exports. Declared here, as a plain table (other
---resources' exports stay untyped), so the definitions check clean on their own: without it LuaLS flags
---`Undefined global 'exports'` on every export below. CfxLua definitions that declare it too merge with this.
exports = {}

---`exports.bridge` on either side; client.lua and server.lua declare each side's exports on it.
---Call them with a colon, `exports.bridge:Name(...)`: FiveM's Lua export proxy drops the first argument, which the
---colon fills with the proxy itself (`exports.bridge.Name(a)` would lose `a`). Each export is declared as a method,
---so LuaLS completes the colon form and flags a dot call that misses `self`.
---@class BridgeExports
exports.bridge = {}
