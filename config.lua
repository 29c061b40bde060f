-- bridge configuration. Edit the values; every key is optional and falls back to the default shown here.
-- A wrong type or value is reported in the server console with the key's name, and the default is used.
Config = {}

-- How long a player's departments and ranks are cached before they are fetched again, in milliseconds
-- (1000 to 86400000). Below 60000 is for testing: the console says what it costs in panel requests a minute.
Config.RefreshIntervalMs = 300000

-- How long one request to the panel may take before it counts as failed, in milliseconds.
Config.RequestTimeoutMs = 5000

-- How long a player must wait between two /dutyrefresh commands, in milliseconds.
Config.RefreshCooldownMs = 30000

-- Console verbosity: 'error', 'warn', 'info' or 'debug'.
Config.LogLevel = 'info'

-- What going on duty does while the panel is unreachable (the bridge notices after a few failed requests):
-- 'refuse' tells the player the panel is unreachable and keeps them off duty;
-- 'queue' puts them on duty in game for a department their last known profile grants, and the call to the panel
-- waits (kept across restarts) until the panel answers; if the panel then refuses it, they go off duty again.
Config.DegradedMode = 'refuse'

-- The panel's rate limit, shared by every request of this server (one IP). The bridge follows the rate-limit
-- headers the panel sends; these values are used only until the first answer, or when the panel sends none.
Config.PanelRateLimit = {
  -- Requests allowed per window.
  Requests = 200,
  -- Length of the window, in milliseconds.
  WindowMs = 60000,
}

-- Integrations with other resources. All are off by default.
Config.Integrations = {
  -- Job framework that gives the player the department's job while on duty (docs/integrations.md): false (off),
  -- 'auto' (the first one started of qbx_core, qb-core, es_extended, ox_core), 'esx', 'qbcore', 'qbox' or
  -- 'ox_core' (a group, made the active group). Off duty the player gets back exactly what they had; what the
  -- bridge gave is kept in KVP until then, so a crash or a drop is made good when the character loads again.
  JobFramework = false,
  -- ESX and QBCore only: the job a player gets off duty when the framework no longer has their own job (it was
  -- deleted while they were on duty); if it has not this one either, unemployed 0. Qbox falls back to unemployed
  -- itself; ox_core has no job.
  FallbackJob = 'unemployed',
  -- Grade of that job.
  FallbackGrade = 0,
  -- Optional, per department slug: the job it gives while on duty (default: the slug itself) and the grade of
  -- each panel rank id (a rank not listed gets the lowest grade: 0, or 1 on ox_core). For example:
  --   DepartmentJobs = {
  --     lspd = { Job = 'police', Grades = { [1] = 0, [2] = 1, [3] = 2 } },
  --     bcso = { Job = 'sheriff', Grades = { [4] = 0, [5] = 2 } },
  --   },
  DepartmentJobs = {},
  -- Pass duty state on to rcore_police; going off duty in rcore_police also ends duty here. With a job framework
  -- too, the bridge owns the job and rcore_police only its own duty (docs/integrations.md).
  RcorePolice = false,
}

-- How players see the bridge's messages: 'auto' uses ox_lib's notifications while ox_lib is started and the
-- game's feed otherwise; 'feed' always uses the feed.
Config.Notifications = 'auto'

-- The players' duty command, which works without any other resource. Off by default: turn it on unless another
-- resource of yours already registers a command of that name (the last one registered would answer it).
--   /duty                 one department: on or off duty; several: a menu to choose from (below)
--   /duty <number|slug>   on duty in that department (the number of the menu's list, or its slug: /duty lspd)
--   /duty off             off duty
-- It goes through the same checks, rate limits and notifications as the client exports.
Config.DutyCommand = {
  -- true registers the command (and its chat suggestion) on every client.
  Enabled = false,
  -- Its name, without the /: a letter, then up to 31 letters, digits, _ or -.
  Name = 'duty',
  -- How a player with several departments chooses: 'auto' shows ox_lib's context menu while ox_lib is started and
  -- a numbered list in chat otherwise; 'chat' always lists them in chat.
  Menu = 'auto',
}

-- Prometheus metrics (requests, 429s, budget, queues, outbox, panel latency, circuit, players on duty) at
-- http://<server>:30120/<resource name>/metrics, for Grafana. Needs its own token in server.cfg:
-- set bridge_metrics_token "<24 or more characters, no spaces>" (never the panel token; `openssl rand -hex 16` makes
-- one); scrapers send it as a bearer token. Example alert rules: docs/prometheus/bridge-alerts.yml.
Config.Metrics = false

-- ACE permissions that follow duty. While on duty a player is in the principals
--   bridge.onduty                 (any department)
--   bridge.<slug>                 (e.g. bridge.lspd)
--   bridge.<slug>.<rankId>        (e.g. bridge.lspd.2, the panel's rank id)
-- and leaves them on going off duty, disconnecting, the bridge stopping, or (after a crash) the next start.
-- Grant with ACEs in server.cfg, e.g.:
--   add_ace bridge.lspd command.spikestrip allow
--   add_ace bridge.lspd.3 command.impound allow
-- The bridge adds them with add_principal, which FXServer only lets it run with these two lines in server.cfg:
--   add_ace resource.bridge command.add_principal allow
--   add_ace resource.bridge command.remove_principal allow
-- It links the player's identifier.chat:<id> to its own principal bridge.account.chat:<id>, which is in the
-- principals above, so principals you add by hand (add_principal identifier.chat:<id> bridge.lspd) are never removed.
-- A slug with other characters than letters, digits, _ and - gives bridge.onduty only.
Config.AcePermissions = false

-- A game crash need not end a shift. A player on duty whose game crashes or times out keeps their shift open at the
-- panel for this long, in milliseconds (0 to 600000). If they come back with the same chat account in time, they
-- are on duty again in the same department, in the same shift: the panel hears nothing. If not, the shift ends
-- when the window runs out. A player who quits ends the shift at once, as does a kick or a ban. 0 (the default)
-- ends every shift when its player leaves: duty is per session. Players have asked for 15 minutes
-- (op-framework #2581); the bridge allows up to 10, since the panel counts the whole window as duty.
-- With several servers (BRIDGE_REDIS_URL), the window holds on every server of the community: the player may come
-- back on another one, which then takes the shift over, and the panel still hears nothing.
Config.ResumeWindowMs = 0

-- txAdmin's scheduled restarts: players on duty are told 5 minutes and 1 minute before that their shift ends with
-- the restart (the text is Config.Locale.restart_notice). false: they are not told.
Config.RestartNotice = true

-- What players read. Change any text here; a key left out keeps the English text shown below.
-- {name} placeholders are filled in: a text may leave them out but may not use others (it is then refused
-- with a console warning and the English text is used). An empty text ('') shows no notification.
Config.Locale = {
  -- Title of the notifications (shown by ox_lib; the feed has none).
  notification_title = 'Duty',
  -- Going on duty.
  on_duty = 'You are now on duty: {department}, {rank}.',
  -- Going off duty (may also use {department}).
  off_duty = 'You are now off duty.',
  -- Taken off duty because a refresh removed the department.
  off_duty_department_removed = 'You were taken off duty: you are no longer a member of {department}.',
  -- Taken off duty because the panel no longer knows the player's chat account: it was deleted or banned there (may
  -- also use {department}).
  off_duty_account_removed = 'You were taken off duty: the panel no longer knows your chat account.',
  -- Taken off duty by an administrator (may also use {department}).
  off_duty_admin = 'An administrator took you off duty.',
  -- Taken off duty because the same chat account went on duty in another game session (may also use {department}).
  off_duty_replaced = 'You are now off duty: your chat account went on duty in another game session.',
  -- Taken off duty because, after the servers lost touch (Redis), the same chat account's duty turned out to be on
  -- another server (may also use {department}).
  off_duty_superseded = 'You are now off duty: your chat account is on duty in another game session.',
  -- Taken off duty because txAdmin is stopping or restarting the server (may also use {department}).
  off_duty_server_shutdown = 'You are now off duty: the server is shutting down.',
  -- To players on duty, 5 minutes and 1 minute before a restart txAdmin scheduled (Config.RestartNotice).
  restart_notice = 'The server restarts in {minutes} min; your shift ends then.',
  -- Asking to go on duty again for the same department.
  already_on_duty = 'You are already on duty in {department}.',
  -- Asking to go off duty while off duty.
  already_off_duty = 'You are not on duty.',
  -- Stands for a department whose name is unknown, inside other messages.
  department_fallback = 'department {id}',
  -- A refresh changed the rank while on duty.
  rank_changed = 'Your rank is now {rank}.',
  -- /dutyrefresh done.
  refreshed = 'Your departments and ranks were refreshed.',
  -- /dutyrefresh failed.
  refresh_failed = 'Your departments could not be refreshed right now; try again in a moment.',
  -- /dutyrefresh again too soon.
  refresh_cooldown = 'Please wait {seconds} s before refreshing again.',
  -- /dutyrefresh started.
  refreshing = 'Refreshing your departments...',
  -- Going on duty without being a member of any department.
  no_departments = 'You are not a member of any department. If that is wrong, run /syncme in the chat or press "Refresh roles" in the panel, then /dutyrefresh.',
  -- Going on duty before a menu selected one of the player's several departments.
  no_department_selected = 'Select a department before going on duty.',
  -- A menu called UpdatePlayerDuty with something other than true or false.
  invalid_status = 'UpdatePlayerDuty needs true (on duty) or false (off duty).',
  -- Going on duty for a department the player is not a member of.
  not_member = 'You are not a member of that department. If this is wrong, run /dutyrefresh.',
  -- Going on duty before the departments are loaded.
  profile_unavailable = 'Your departments are not loaded yet; try again in a moment or run /dutyrefresh.',
  -- The panel refused a duty change ({detail} is its reason).
  panel_refused = 'The panel refused the duty change: {detail}. Run /dutyrefresh if your roles changed.',
  -- The panel did not answer a duty change.
  panel_unavailable = 'The panel did not answer; try again in a moment.',
  -- Too many duty requests in a short time.
  too_many_requests = 'Too many duty requests; slow down.',
  -- A malformed duty request.
  invalid_request = 'The duty request was not valid.',
  -- The bridge has no panel set up.
  not_configured = 'The duty system is not configured on this server. Tell an administrator.',
  -- The player has no chat account linked.
  no_identifier = 'No chat account is linked to your game. Link your chat account in FiveM and reconnect.',
  -- The linked chat account id is not valid.
  malformed_identifier = 'Your chat account identifier is not valid. Re-link your chat account and reconnect.',
  -- The panel does not know the chat account.
  not_registered = 'The panel does not know your chat account yet: run /syncme in the chat or press "Refresh roles" in the panel, then /dutyrefresh.',
  -- The panel refused the API token.
  unauthorized = 'The duty system cannot reach the panel right now. Tell an administrator.',
  -- The departments could not be loaded.
  panel_unavailable_profile = 'Your departments could not be loaded right now; run /dutyrefresh in a moment.',
  -- A menu asked for the departments before they arrived.
  loading = 'Your departments are still loading.',
  -- Help text of /dutyrefresh in the chat suggestions.
  dutyrefresh_help = 'Reload your departments and ranks from the panel',
  -- The duty command (Config.DutyCommand): its help text in the chat suggestions.
  duty_help = 'Go on or off duty',
  -- Name of its argument in the chat suggestions.
  duty_param_name = 'department',
  -- Help of its argument in the chat suggestions.
  duty_param_help = 'the number or slug of one of your departments, or off',
  -- First line of the list in chat ({command} is the command's name).
  duty_choose = 'Your departments: /{command} <number or slug> goes on duty, /{command} off goes off duty.',
  -- A department in the list in chat.
  duty_list_department = '{number}. {department} ({slug}), {rank}',
  -- The department the player is on duty in, in the list in chat.
  duty_list_department_on_duty = '{number}. {department} ({slug}), {rank}: on duty',
  -- Title of the ox_lib menu.
  duty_menu_title = 'Duty',
  -- The line under a department's name in the ox_lib menu (may also use {number}, {department}, {slug}).
  duty_menu_department = '{rank}',
  -- The same for the department the player is on duty in, which the menu does not let them select.
  duty_menu_department_on_duty = 'On duty as {rank}',
  -- The ox_lib menu's entry that ends the duty.
  duty_menu_off = 'Go off duty',
  -- A /duty argument that is none of the player's departments ({choice} is what they typed).
  duty_unknown_department = 'You have no department "{choice}"; /{command} lists yours.',
  -- Help of /dutyrefresh's optional argument: a supervisor (ACE command.dutyrefresh.others) refreshes another player.
  dutyrefresh_id_help = "Supervisors: another player's server id",
}

-- The JS side of the resource cannot see Lua globals; it reads this table through a same-resource export.
exports('GetConfig', function()
  return Config
end)
