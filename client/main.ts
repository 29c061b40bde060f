// Client entry: plain V8 in the game client, no Node and no Web APIs.
console.log(`[${GetCurrentResourceName()}] client started`);
