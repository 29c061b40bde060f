// How long the bridge holds the game server's thread, measured in the simulator (sim/). In FXServer the bridge's
// JS runs on the server's main thread: every event, tick, timer, export or reference call into its runtime, and
// every promise continuation of its code, delays whatever the server does next. Here everything (the simulator,
// 2048 clients, the mock panel, the bench) shares one Node thread, so the process's own event-loop delay says little
// about the bridge: the meter tells the bridge's stretches apart from the rest and times those.
//
// Who runs is a stack: the simulator entering a runtime (Host.enter: events, ticks and timers, reference and export
// calls, the scripts' first run) pushes whether it is the bridge's server runtime; the host-work meter's switches to
// the host's side (natives: KVP, state bags, routing events; `Sim.hostWork.run('host', …)`) push "not the bridge";
// a promise continuation (v8.promiseHooks) pushes whether its promise belongs to the bridge's realm (its vm
// context). Code nothing places (the bench's own loop, another runtime's continuations) is not the bridge's.
//
// Time: each stretch counts the lesser of its wall time (performance.now()) and the process's CPU time over it
// (process.cpuUsage()): the main thread was busy at most that long. Other processes on a shared machine stretch the
// wall time, V8's helper threads (concurrent marking, parallel scavenges, compilers) add CPU; each clock is right
// where the other is not. A long task a collection ran in is set apart: in the simulator the heap is mostly its
// clients', and a collection lands in whoever's stretch allocated last (what the bridge allocates is measured by
// `--only toggle-alloc`).

import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { promiseHooks } from 'node:v8';
import { Host } from '../../sim/host/host.js';
import type { Runtime } from '../../sim/host/resource.js';
import type { Sim } from '../../sim/index.js';
import { JsRuntime } from '../../sim/js/js-runtime.js';
import { gcSeen } from './allocation-meter.js';
import { percentile } from './stats.js';

export interface ThreadHoldResult {
  label: string;
  /** Game time the meter ran, and the process's CPU meanwhile (everything: simulator, clients, panel, bridge). */
  gameS: number;
  processCpuS: number;
  /** The bridge's own CPU over the run. */
  bridgeCpuS: number;
  /**
   * A task: from the simulator entering the bridge's runtime (or a continuation of its code starting) until control
   * leaves it, without the natives it called (`longestTaskMs`) and with them (`longestTaskWithNativesMs`: the
   * simulator's JS for them, which FXServer runs in C++).
   */
  tasks: number;
  taskP99Ms: number;
  longestTaskMs: number;
  longestTaskWithNativesMs: number;
  /** What the longest task was (the entry that started it), and the three longest with theirs. */
  longestTask: string;
  topTasks: Array<{ ms: number; what: string; spanWallMs: number; spanCpuMs: number }>;
  /**
   * Tasks of 1 ms or more that a garbage collection ran in are left out of the longest-task figures above: the
   * simulator's heap holds 2048 clients' contexts and Lua states, which FXServer's server heap does not, and a
   * collection is set off by whoever allocates last, whoever filled the heap. How many, and the longest of them.
   * (The task p99 and the frame figures keep them.)
   */
  tasksInCollection: number;
  longestTaskInCollectionMs: number;
  /**
   * The first run of the bridge's server script in a new runtime (compile and run of dist/server.js, its synchronous
   * start): a task of its own, left out of the figures above (`npm run bench -- --only micro` has its own target).
   */
  scriptStarts: number;
  longestScriptStartMs: number;
  /** Whether a garbage collection ran in the longest script start. */
  scriptStartInCollection: boolean;
  /**
   * The bridge's time in each server frame (50 ms of game time, FXServer's svMain), over every frame of the run,
   * idle ones included: the delay it adds to the server's loop, sampled by time as monitorEventLoopDelay samples.
   * Virtual time puts everything due at one moment in the same instant (200 answers sent together arrive
   * together), so a frame's sum is what one frame could hold at most.
   */
  frames: number;
  framesWithBridgeWork: number;
  /** The bridge's time over the run spread over every frame: what resmon shows. */
  frameMeanMs: number;
  /**
   * The same without the tasks of 1 ms or more a garbage collection ran in (see tasksInCollection): the collections
   * of the simulator's heap, mostly its clients', that the bridge's allocations happened to set off.
   */
  frameMeanWithoutCollectionsMs: number;
  frameP50Ms: number;
  frameP99Ms: number;
  frameMaxMs: number;
  /** perf_hooks.monitorEventLoopDelay of the whole process (bridge, simulator, clients, panel, bench). */
  processLoopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** The bridge's realms: its server runtime's vm context (a new one after every restart of the resource). */
interface Placement {
  isBridgeRuntime(host: Host, runtime: Runtime): boolean;
  isBridgePromise(promise: Promise<unknown>): boolean;
}

function placement(resource: string): Placement {
  const prototypes = new WeakSet<object>();
  return {
    isBridgeRuntime(host, runtime) {
      if (host.side !== 'server' || runtime.kind !== 'js' || runtime.resource.name !== resource) return false;
      // A JS runtime keeps its context's intrinsics (sim/codec/realm.ts); its promises are of that Promise.
      const realm = (runtime as { realm?: { Promise: PromiseConstructor } }).realm;
      if (realm) prototypes.add(realm.Promise.prototype);
      return true;
    },
    isBridgePromise: (promise) => prototypes.has(Object.getPrototypeOf(promise) as object),
  };
}

const hostEnter = Host.prototype.enter;
const FRAME_MS = 50;

/** What the simulator asks of a JS runtime, by the method it calls: names the task it starts. */
const ENTRIES = {
  loadScript: (file: unknown) => `the first run of ${String(file)}`,
  dispatchEvent: (name: unknown) => `event ${String(name)}`,
  tick: () => 'its tick (timers, setTick)',
  callRef: () => 'a reference call (an export, a callback)',
} as const;
type Entry = keyof typeof ENTRIES;
const AN_ENTRY = 'an entry from the host';
const CONTINUATION = 'a continuation of its code (a promise)';

/**
 * Starts metering `resource`'s server runtime in `sim` (the simulator's host-work meter is started for it too, so
 * the packing of its own events counts as its work). `stop()` ends it and returns the figures.
 */
export function meterThreadHold(simOrSims: Sim | readonly Sim[], label: string, resource = 'bridge') {
  // Several servers in one process (the cluster storm): each server's bridge is metered, each server's natives are
  // told apart by its own host-work meter, and frames follow the first server's clock (they share real time).
  const sims = Array.isArray(simOrSims) ? simOrSims : [simOrSims as Sim];
  const sim = sims[0] as Sim;
  const where = placement(resource);
  const startedCpu = cpuMicros();
  const startedGame = sim.now();
  const stack: boolean[] = [];
  let bridgeFrames = 0;
  let inBridge = false;
  // Where the current stretch began, on both clocks (see `elapsed`).
  let sinceWall = 0;
  let sinceCpu = 0;
  let task = { us: 0, wallFrom: 0, cpuFrom: 0, isStart: false, what: '' };
  let entering: { entry: Entry; arg: unknown } | undefined;
  /** Tasks of 1 ms or more, kept to be set against the collections afterwards. */
  /** `spanWallMs`/`spanCpuMs`: each clock alone over the task's whole span, natives in (which clock ran high). */
  const long: Array<{
    us: number;
    withNativesUs: number;
    from: number;
    to: number;
    what: string;
    spanWallMs: number;
    spanCpuMs: number;
  }> = [];
  /** The three longest of the shorter tasks, for a run with none of 1 ms. */
  const shortTop: typeof long = [];
  let scriptStarts = 0;
  let longestStart = { us: 0, from: 0, to: 0 };
  const frameUs = new Map<number, number>();
  let totalUs = 0;
  const tasks = createHistogram();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const collections = gcSeen();

  /**
   * µs the main thread was busy between two readings: at most the wall time (other processes on the machine may
   * have had the core meanwhile) and at most the process's CPU (V8's helper threads may have added to it), so the
   * lesser of the two.
   */
  const elapsed = (wall: number, cpu: number, fromWall: number, fromCpu: number) =>
    Math.max(0, Math.min((wall - fromWall) * 1000, cpu - fromCpu));
  const frameNow = () => Math.floor((sim.now() - startedGame) / FRAME_MS);
  const spent = (us: number) => {
    task.us += us;
    totalUs += us;
    const frame = frameNow();
    frameUs.set(frame, (frameUs.get(frame) ?? 0) + us);
  };
  const push = (bridge: boolean, continuation = false) => {
    if (bridge !== inBridge) {
      const wall = performance.now();
      const cpu = cpuMicros();
      if (inBridge) spent(elapsed(wall, cpu, sinceWall, sinceCpu));
      sinceWall = wall;
      sinceCpu = cpu;
      if (bridge && bridgeFrames === 0) {
        task = {
          us: 0,
          wallFrom: wall,
          cpuFrom: cpu,
          isStart: entering?.entry === 'loadScript',
          what: continuation ? CONTINUATION : entering ? ENTRIES[entering.entry](entering.arg) : AN_ENTRY,
        };
      }
    }
    if (bridge) bridgeFrames += 1;
    stack.push(bridge);
    inBridge = bridge;
  };
  const pop = () => {
    if (stack.length === 0) return;
    const was = stack.pop() as boolean;
    const next = stack.at(-1) ?? false;
    if (was !== next) {
      const wall = performance.now();
      const cpu = cpuMicros();
      if (was) spent(elapsed(wall, cpu, sinceWall, sinceCpu));
      sinceWall = wall;
      sinceCpu = cpu;
      if (was && bridgeFrames === 1 && task.isStart) {
        // Apart from the frames too: they are the bridge's running cost.
        const frame = frameNow();
        frameUs.set(frame, (frameUs.get(frame) ?? 0) - task.us);
        scriptStarts += 1;
        if (task.us > longestStart.us) longestStart = { us: task.us, from: task.wallFrom, to: wall };
      } else if (was && bridgeFrames === 1) {
        tasks.record(Math.max(1, Math.round(task.us)));
        const withNativesUs = elapsed(wall, cpu, task.wallFrom, task.cpuFrom);
        const kept = {
          us: task.us,
          withNativesUs,
          from: task.wallFrom,
          to: wall,
          what: task.what,
          spanWallMs: wall - task.wallFrom,
          spanCpuMs: (cpu - task.cpuFrom) / 1000,
        };
        if (task.us >= 1000) long.push(kept);
        else if (shortTop.length < 3 || task.us > (shortTop.at(-1)?.us ?? 0)) {
          shortTop.push(kept);
          shortTop.sort((a, b) => b.us - a.us);
          shortTop.length = Math.min(shortTop.length, 3);
        }
      }
    }
    if (was) bridgeFrames -= 1;
    inBridge = next;
  };

  const hostRuns = sims.map(({ hostWork }) => {
    hostWork.start(resource);
    const run = hostWork.run;
    hostWork.run = function meteredRun<T>(side: 'host' | 'script', fn: () => T): T {
      // 'script' is the focused runtime's own code (its entry pushes below); 'host' is the simulator's work.
      if (side === 'script') return run.call(hostWork, side, fn) as T;
      push(false);
      try {
        return run.call(hostWork, side, fn) as T;
      } finally {
        pop();
      }
    };
    return { hostWork, run };
  });
  Host.prototype.enter = function meteredEnter<T>(this: Host, runtime: Runtime, fn: () => T): T {
    push(where.isBridgeRuntime(this, runtime));
    try {
      return hostEnter.call(this, runtime, fn) as T;
    } finally {
      pop();
    }
  };
  // What each of these methods is called for names the task: loadScript enters the runtime itself (named before
  // the entry), the others run inside the host's entry (named from within).
  const own = Object.fromEntries(
    (Object.keys(ENTRIES) as Entry[]).map((entry) => [
      entry,
      Object.getOwnPropertyDescriptor(JsRuntime.prototype, entry),
    ]),
  );
  for (const entry of Object.keys(ENTRIES) as Entry[]) {
    const original = JsRuntime.prototype[entry] as (this: JsRuntime, ...args: unknown[]) => unknown;
    Object.defineProperty(JsRuntime.prototype, entry, {
      configurable: true,
      writable: true,
      value: function namedEntry(this: JsRuntime, ...args: unknown[]) {
        const outer = entering;
        if (bridgeFrames === 0) entering = { entry, arg: args[0] };
        // The host entered the runtime first and calls the method inside (events, ticks, reference calls).
        else if (bridgeFrames === 1 && task.what === AN_ENTRY) task.what = ENTRIES[entry](args[0]);
        try {
          return original.apply(this, args);
        } finally {
          entering = outer;
        }
      },
    });
  }
  const stopHooks = promiseHooks.createHook({
    before: (promise) => push(where.isBridgePromise(promise), true),
    after: () => pop(),
  });
  loop.enable();

  const ms = (us: number) => us / 1000;
  return {
    async stop(): Promise<ThreadHoldResult> {
      loop.disable();
      stopHooks();
      Host.prototype.enter = hostEnter;
      for (const entry of Object.keys(ENTRIES) as Entry[]) {
        const descriptor = own[entry];
        if (descriptor) Object.defineProperty(JsRuntime.prototype, entry, descriptor);
        else delete (JsRuntime.prototype as unknown as Record<string, unknown>)[entry];
      }
      for (const { hostWork, run } of hostRuns) {
        hostWork.run = run;
        hostWork.stop();
      }
      const processCpuS = (cpuMicros() - startedCpu) / 1e6;
      const gameS = (sim.now() - startedGame) / 1000;
      const pauses = await collections.stop();
      const inCollection = (task: { from: number; to: number }) =>
        pauses.some((pause) => pause.start < task.to && pause.start + pause.duration > task.from);
      const byLength = [...long].sort((a, b) => b.us - a.us);
      const collided = byLength.filter(inCollection);
      const clean = [...byLength.filter((task) => !inCollection(task)), ...shortTop];
      const frames = Math.max(1, Math.ceil((sim.now() - startedGame) / FRAME_MS));
      const busy = [...frameUs.values()].filter((us) => us > 0);
      // Every frame counts, idle ones as 0.
      const perFrame = [...busy, ...new Array<number>(Math.max(0, frames - busy.length)).fill(0)];
      const frameMs = (share: number) => ms(percentile(perFrame, share) ?? 0);
      const loopMs = (value: number) => (Number.isFinite(value) ? value / 1e6 : 0);
      return {
        label,
        gameS,
        processCpuS,
        bridgeCpuS: totalUs / 1e6,
        tasks: tasks.count,
        taskP99Ms: ms(tasks.count > 0 ? tasks.percentile(99) : 0),
        longestTaskMs: ms(clean[0]?.us ?? 0),
        longestTaskWithNativesMs: ms(clean[0]?.withNativesUs ?? 0),
        longestTask: clean[0]?.what ?? '-',
        topTasks: clean
          .slice(0, 3)
          .map(({ us, what, spanWallMs, spanCpuMs }) => ({ ms: ms(us), what, spanWallMs, spanCpuMs })),
        longestTaskInCollectionMs: ms(collided[0]?.us ?? 0),
        tasksInCollection: collided.length,
        scriptStarts,
        longestScriptStartMs: ms(longestStart.us),
        scriptStartInCollection: scriptStarts > 0 && inCollection(longestStart),
        frames,
        framesWithBridgeWork: busy.length,
        frameMeanMs: ms(totalUs / frames),
        frameMeanWithoutCollectionsMs: ms((totalUs - collided.reduce((sum, task) => sum + task.us, 0)) / frames),
        frameP50Ms: frameMs(0.5),
        frameP99Ms: frameMs(0.99),
        frameMaxMs: frameMs(1),
        processLoopDelay: {
          p50Ms: loopMs(loop.percentile(50)),
          p99Ms: loopMs(loop.percentile(99)),
          maxMs: loopMs(loop.max),
        },
      };
    },
  };
}
