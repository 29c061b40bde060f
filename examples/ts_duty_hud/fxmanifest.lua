fx_version 'cerulean'
game 'gta5'

name 'ts_duty_hud'
description 'Example: a duty HUD and an on-duty roster in TypeScript, from the bridge events'
version '1.0.0'

-- dist/ is built from src/ with `npm run build` (build.js).
node_version '22'
dependency 'bridge'

client_script 'dist/client.js'
server_script 'dist/server.js'

ui_page 'web/index.html'
files { 'web/index.html' }
