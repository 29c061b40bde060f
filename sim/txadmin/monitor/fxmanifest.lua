-- Stub of txAdmin's `monitor` resource for the simulator: what reaches other resources of the server (sv_main.lua
-- says which parts of tabarra/txAdmin v8.0.1 it is written from).
fx_version 'cerulean'
game 'common'
lua54 'yes'

server_script 'sv_main.lua'
