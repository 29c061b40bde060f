-- bridge configuration. Edit the values; every key is optional and falls back to the default shown here.
-- A wrong type or value is reported in the server console with the key's name, and the default is used.
Config = {}

-- How long a player's departments and ranks are cached before they are fetched again, in milliseconds.
Config.RefreshIntervalMs = 300000

-- How long one request to the panel may take before it counts as failed, in milliseconds.
Config.RequestTimeoutMs = 5000

-- How long a player must wait between two /dutyrefresh commands, in milliseconds.
Config.RefreshCooldownMs = 30000

-- Console verbosity: 'error', 'warn', 'info' or 'debug'.
Config.LogLevel = 'info'

-- Integrations with other resources. All are off by default.
Config.Integrations = {
  -- Job framework that receives the department as the player's job while on duty:
  -- false (off), 'auto' (the first one running), 'esx', 'qbcore', 'qbox' or 'ox_core'.
  JobFramework = false,
  -- Job a player returns to when going off duty.
  FallbackJob = 'unemployed',
  -- Grade of that job.
  FallbackGrade = 0,
  -- Pass duty state on to rcore_police.
  RcorePolice = false,
}

-- The JS side of the resource cannot see Lua globals; it reads this table through a same-resource export.
exports('GetConfig', function()
  return Config
end)
