// Opt-in accounting of the CPU the simulator spends on behalf of one resource's server scripts. In FXServer the
// natives (KVP, state bags and their replication, routing events and fanning them out to clients, calls between
// runtimes) run in C++, and clients run on the players' machines; here all of it is JS in the test's process, so a
// CPU figure taken around a script's work includes it. The meter splits the process's CPU time into "host" (that
// work) and everything else, which is counted as the script's: code the meter cannot place (a promise continuation
// of anyone, the test's own code) lands on the script's side, never the other way.
//
// Off by default; `process.cpuUsage()` is read at every switch between the two, which costs a system call, so a
// figure taken with the meter on should take `switches` times that cost off as well (see `switchCostUs`).
import type { Runtime } from './resource.js';

export type WorkSide = 'host' | 'script';

const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

export class HostWork {
  private focus: string | null = null;
  private side: WorkSide = 'script';
  private since = 0;
  private hostTotal = 0;
  private switchCount = 0;

  /** Starts accounting for `resource`'s server scripts (its client scripts run on players' machines: host). */
  start(resource: string): void {
    this.focus = resource;
    this.side = 'script';
    this.since = cpuMicros();
    this.hostTotal = 0;
    this.switchCount = 0;
  }

  stop(): void {
    this.focus = null;
  }

  get enabled(): boolean {
    return this.focus !== null;
  }

  /** CPU µs spent on the host's side since start(), including the part of the current stretch if it is one. */
  get hostUs(): number {
    return this.hostTotal + (this.focus !== null && this.side === 'host' ? cpuMicros() - this.since : 0);
  }

  /** Times the meter read the CPU clock (each costs about `switchCostUs()`). */
  get switches(): number {
    return this.switchCount;
  }

  /** Which side a runtime's own code is on: the focused resource's server runtime is the script, the rest host. */
  sideOf(runtime: Runtime, side: 'server' | 'client'): WorkSide {
    return side === 'server' && runtime.kind !== 'host' && runtime.resource.name === this.focus ? 'script' : 'host';
  }

  /** Runs `fn` counted on `side` (nested calls switch back and forth; unchanged sides cost nothing). */
  run<T>(side: WorkSide, fn: () => T): T {
    if (this.focus === null || side === this.side) return fn();
    const previous = this.side;
    this.switchTo(side);
    try {
      return fn();
    } finally {
      this.switchTo(previous);
    }
  }

  private switchTo(side: WorkSide): void {
    const now = cpuMicros();
    if (this.side === 'host') this.hostTotal += now - this.since;
    this.since = now;
    this.side = side;
    this.switchCount += 1;
  }
}

/** CPU µs one switch of the meter costs the process (the median of batches of switches on an idle meter). */
export function switchCostUs(batches = 9, perBatch = 2000): number {
  const meter = new HostWork();
  meter.start('switch-cost');
  const perSwitch: number[] = [];
  for (let batch = 0; batch < batches; batch++) {
    const started = cpuMicros();
    for (let index = 0; index < perBatch; index++) meter.run('host', () => undefined);
    perSwitch.push((cpuMicros() - started) / (2 * perBatch));
  }
  perSwitch.sort((a, b) => a - b);
  return perSwitch[Math.floor(perSwitch.length / 2)] as number;
}
