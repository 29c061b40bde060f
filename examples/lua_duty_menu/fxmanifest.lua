fx_version 'cerulean'
game 'gta5'
lua54 'yes'

name 'lua_duty_menu'
description 'Example: a /duty command on the bridge exports, and a server log of who goes on and off duty'
version '1.0.0'

-- The bridge must start first: this resource calls its exports and listens to its events.
dependency 'bridge'

client_script 'client.lua'
server_script 'server.lua'
