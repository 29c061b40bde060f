import { stopSignal } from '../../../mock-panel/stop-signal';

// A process that gets the same stop signal twice, the second while it stops: Ctrl+C under `npm run` (the terminal
// signals the whole group, then npm forwards its own copy). It prints whether it stopped by itself.

const signal = process.argv[2] as NodeJS.Signals;
const stopped = stopSignal();
const keepAlive = setInterval(() => {}, 60_000);
process.kill(process.pid, signal);
await stopped;
process.kill(process.pid, signal);
await new Promise((resolve) => setTimeout(resolve, 200));
clearInterval(keepAlive);
console.log('stopped by itself');
