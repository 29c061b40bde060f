// Time and frames. The server runs a frame every 50 ms (FXServer's svMain); a client runs frames on its own grid
// but only when it has work (queued events, due timers, threads), so thousands of idle clients cost nothing.
//
// Two clocks: 'real' reads Date.now() and schedules with the global setTimeout, both looked up at call time, so
// vitest's fake timers (vi.useFakeTimers + vi.advanceTimersByTimeAsync) turn it into virtual time; 'virtual' is a
// manual clock that only moves in advance()/until()/settle(), for benchmarks and runs outside vitest.
//
// Either clock is the machine's monotonic clock: frames, timers, GetGameTimer and performance.now follow it. The
// server machine's wall clock (script `Date`, Lua `os.time`) is that plus an offset that jumpWallClock moves, as an
// admin or NTP moves a real machine's clock while its timers keep running.
import { setImmediate as realSetImmediate } from 'node:timers';
import type { HostWork } from './host-work.js';

/** What the driver runs frames of: the server, or a client (host.ts). */
export interface FrameHost {
  readonly side: 'server' | 'client';
  readonly alive: boolean;
  /** When it next needs a frame (Infinity when idle). */
  readonly wakeAt: number;
  readonly frameMs: number;
  tick(now: number): void;
}

export type ClockMode = 'real' | 'virtual';

export interface Clock {
  now(): number;
}

interface FakeClock {
  tickAsync(ms: number): Promise<unknown>;
}

/** vitest/sinon fake timers hang their clock on the faked setTimeout. */
function fakeClock(): FakeClock | null {
  const clock = (globalThis.setTimeout as unknown as { clock?: FakeClock }).clock;
  return clock && typeof clock.tickAsync === 'function' ? clock : null;
}

/** Lets promise callbacks and ready I/O run (a real macrotask turn, whatever timers are faked). */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}

export class Driver implements Clock {
  private virtualNow: number;
  private readonly origin: number;
  private nextServerFrame: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private scheduledAt = Number.POSITIVE_INFINITY;
  private running = false;
  private stopped = false;
  /** Clients with a frame to run; idle ones are not looked at, so thousands of them cost nothing per frame. */
  private readonly awake = new Set<FrameHost>();
  private wallOffsetMs = 0;

  constructor(
    readonly mode: ClockMode,
    private readonly server: () => FrameHost | null,
    readonly serverFrameMs: number,
    readonly clientFrameMs: number,
    private readonly hostWork?: HostWork,
  ) {
    this.virtualNow = Date.now();
    this.origin = this.now();
    this.nextServerFrame = this.origin + serverFrameMs;
  }

  now(): number {
    return this.mode === 'virtual' ? this.virtualNow : Date.now();
  }

  /** The machine's wall clock (epoch ms): what scripts read from `Date` and Lua's `os.time`. */
  wallNow(): number {
    return this.now() + this.wallOffsetMs;
  }

  /** Moves the wall clock by `ms` (negative: back); frames, timers and the monotonic clock are not touched. */
  jumpWallClock(ms: number): void {
    this.wallOffsetMs += ms;
  }

  start(): void {
    this.stopped = false;
    this.nextServerFrame = this.snap(this.now() + this.serverFrameMs, this.serverFrameMs);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /** The first grid point at or after `t` (grids are anchored at the simulator's start). */
  private snap(t: number, frame: number): number {
    return this.origin + Math.ceil((t - this.origin) / frame) * frame;
  }

  /** When the next frame of any host is due. */
  nextDue(): number {
    let next = this.nextServerFrame;
    for (const client of this.awake) next = Math.min(next, this.snap(client.wakeAt, client.frameMs));
    return next;
  }

  /** A host's wake time changed: track it, and bring the timer forward if it is now earlier. */
  noteWake(host: FrameHost): void {
    if (host.side === 'client') {
      if (host.alive && Number.isFinite(host.wakeAt)) this.awake.add(host);
      else this.awake.delete(host);
    }
    if (this.mode === 'virtual' || this.running || this.stopped) return;
    if (host.wakeAt < this.scheduledAt) this.schedule();
  }

  /** Runs every frame due at the current time (the frame loop is the host's work; scripts' ticks are theirs). */
  runDue(): void {
    if (this.hostWork?.enabled) this.hostWork.run('host', () => this.runFrames());
    else this.runFrames();
  }

  private runFrames(): void {
    if (this.stopped) return;
    const now = this.now();
    const server = this.server();
    this.running = true;
    try {
      if (server && now >= this.nextServerFrame) {
        server.tick(now);
        this.nextServerFrame = Math.max(this.nextServerFrame + this.serverFrameMs, this.snap(now, this.serverFrameMs));
      }
      for (const client of [...this.awake]) {
        if (client.alive && this.snap(client.wakeAt, client.frameMs) <= now) client.tick(now);
      }
    } finally {
      this.running = false;
    }
  }

  private schedule(): void {
    if (this.mode === 'virtual' || this.stopped) return;
    this.clearTimer();
    const at = this.nextDue();
    this.scheduledAt = at;
    const delay = Math.max(0, at - this.now());
    const handle = globalThis.setTimeout(() => {
      if (this.timer !== handle) return;
      this.timer = null;
      this.scheduledAt = Number.POSITIVE_INFINITY;
      this.runDue();
      this.schedule();
    }, delay);
    // A simulator a test forgot to stop must not keep the process alive.
    (handle as { unref?: () => void }).unref?.();
    this.timer = handle;
  }

  private clearTimer(): void {
    if (this.timer !== null) globalThis.clearTimeout(this.timer);
    this.timer = null;
    this.scheduledAt = Number.POSITIVE_INFINITY;
  }

  /** Lets `ms` of game time pass, running every frame due on the way. */
  async advance(ms: number): Promise<void> {
    if (this.mode === 'virtual') {
      const target = this.virtualNow + ms;
      for (;;) {
        await flushMicrotasks();
        const next = this.hostWork?.enabled ? this.hostWork.run('host', () => this.nextDue()) : this.nextDue();
        if (next > target || this.stopped) break;
        this.virtualNow = Math.max(this.virtualNow, next);
        this.runDue();
      }
      this.virtualNow = target;
      await flushMicrotasks();
      return;
    }
    const fake = fakeClock();
    if (fake) {
      await fake.tickAsync(ms);
      return;
    }
    await new Promise((resolve) => globalThis.setTimeout(resolve, ms));
  }

  /** Advances frame by frame until `done()` holds; throws after `timeoutMs` of game time. */
  async until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const step = Math.min(this.serverFrameMs, this.clientFrameMs);
    let waited = 0;
    await flushMicrotasks();
    while (!done()) {
      if (waited >= timeoutMs) throw new Error(`sim: timed out after ${timeoutMs} ms waiting for ${what}`);
      await this.advance(step);
      waited += step;
    }
  }
}
