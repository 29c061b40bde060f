// Server entry: FXServer runs dist/server.js as a classic script; features are wired from here.
console.log(`[${GetCurrentResourceName()}] server started`);
