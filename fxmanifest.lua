fx_version 'cerulean'
game 'gta5'

name 'bridge'
description 'Departments, ranks and duty state from the community web panel (/api/leo)'
version '0.1.0'
license 'MIT'

-- The server bundle needs Node 22 (global fetch); FXServer 12913 is the first artifact that ships it.
node_version '22'
dependency '/server:12913'

-- Lua config first: the JS bundles read it through a same-resource export (see config.lua).
shared_script 'config.lua'
server_script 'dist/server.js'
-- dist/redis.cjs, dist/metrics.cjs and dist/integrations.cjs are not listed: dist/server.js requires each from the
-- resource folder only when its feature is on (BRIDGE_REDIS_URL, Config.Metrics, Config.Integrations).
client_script 'dist/client.js'
