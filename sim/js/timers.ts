// FiveM's JS timers (citizen/scripting/v8/timer.js, fivem-runtime.md §9): they fire inside the runtime's tick, on
// the first tick where `now - lastRun > interval`, with lastRun the previous tick's time when scheduled; so
// setTimeout(f, 0) runs on the next tick at least 2 ms later, and a timer may fire up to one frame early. The
// handle is an object (clearTimeout(Number(t)) does nothing). setTick skips a ticker while its promise is pending.
import type { Realm } from '../codec/realm.js';
import type { Host } from '../host/host.js';
import type { Fn } from './js-core.js';

interface Timer {
  readonly callback: () => void;
  readonly interval: number;
  lastRun: number;
}

interface Ticker {
  readonly callback: Fn;
  pending: boolean;
}

/**
 * What a runtime's timer.js did, counted from its start: FXServer calls the tick function every frame, and timer.js
 * returns at once while nothing waits (no timer, ticker or animation frame); otherwise it walks every timer.
 */
export interface TimerStats {
  /** Frames where the tick function had something waiting, so it walked the timers and ran the tickers. */
  ticksWithWork: number;
  timersFired: number;
  tickerCalls: number;
  /** Waiting now. */
  pendingTimers: number;
  tickers: number;
}

export interface TimerErrors {
  timer(e: unknown): void;
  ticker(e: unknown): void;
  animationFrame(e: unknown): void;
}

const normalizeInterval = (interval: unknown) => Math.max(1, Math.min(2147483647, Number(interval) || 1)) | 0;

export class JsTimers {
  private readonly timers = new Map<number, Timer>();
  private readonly tickers = new Map<number, Ticker>();
  private animationFrames: Fn[] = [];
  private timerId = 0;
  private tickerId = 0;
  private ticksWithWork = 0;
  private timersFired = 0;
  private tickerCalls = 0;

  constructor(
    private readonly host: Host,
    private readonly realm: Realm,
    private readonly errors: TimerErrors,
  ) {}

  private checkCallback(callback: unknown): asserts callback is Fn {
    if (typeof callback !== 'function')
      throw new this.realm.TypeError(`Callback must be a function. Received ${callback}`);
  }

  private handle(id: number): object {
    const timers = this.timers;
    const host = this.host;
    const handle = Object.create(this.realm.Object.prototype) as Record<PropertyKey, unknown>;
    handle.id = id;
    handle.unref = function unref() {
      return this;
    };
    handle.ref = function ref() {
      return this;
    };
    handle.hasRef = () => true;
    handle.refresh = function refresh() {
      const timer = timers.get(id);
      if (timer) timer.lastRun = host.gameTime();
      return this;
    };
    handle[Symbol.toPrimitive] = () => id;
    return handle;
  }

  private add(callback: () => void, interval: unknown): object {
    const id = ++this.timerId;
    const timer: Timer = { callback, interval: normalizeInterval(interval), lastRun: this.host.gameTime() };
    this.timers.set(id, timer);
    this.host.poke(timer.lastRun + timer.interval + 1);
    return this.handle(id);
  }

  readonly setTimeout = (callback: unknown, ms?: unknown, ...args: unknown[]): object => {
    this.checkCallback(callback);
    let id = 0;
    const handle = this.add(() => {
      try {
        callback(...args);
      } finally {
        this.timers.delete(id);
      }
    }, ms);
    id = (handle as { id: number }).id;
    return handle;
  };

  readonly setInterval = (callback: unknown, ms?: unknown, ...args: unknown[]): object => {
    this.checkCallback(callback);
    return this.add(() => callback(...args), ms);
  };

  readonly setImmediate = (callback: unknown, ...args: unknown[]): object => {
    this.checkCallback(callback);
    return this.setTimeout(callback, 0, ...args);
  };

  /** clearTimeout/clearInterval/clearImmediate: only the handle object works (lookup by `timer.id`). */
  readonly clearTimer = (timer: unknown): void => {
    if (!timer) return;
    this.timers.delete((timer as { id?: number }).id as number);
  };

  readonly setTick = (callback: unknown): number => {
    this.checkCallback(callback);
    const id = ++this.tickerId;
    this.tickers.set(id, { callback, pending: false });
    this.host.poke(this.host.world.clock.now());
    return id;
  };

  readonly clearTick = (id: unknown): void => {
    if (!id) return;
    this.tickers.delete(id as number);
  };

  readonly requestAnimationFrame = (callback: unknown): void => {
    this.checkCallback(callback);
    this.animationFrames.push(callback);
    this.host.poke(this.host.world.clock.now());
  };

  tick(now: number): void {
    // timer.js's early return: nothing waits, nothing is walked.
    if (this.timers.size === 0 && this.tickers.size === 0 && this.animationFrames.length === 0) return;
    this.ticksWithWork += 1;
    // Only the timers due as the tick begins can fire in it: a callback can clear or refresh a timer (checked again
    // below), and a refresh only moves lastRun later. A server with thousands of waiting timers (a refresh sleep per
    // player) then pays a comparison per timer and frame, not a copy of the whole map.
    const due: number[] = [];
    for (const [id, timer] of this.timers) if (now - timer.lastRun > timer.interval) due.push(id);
    for (const id of due) {
      const timer = this.timers.get(id);
      if (!timer) continue;
      if (now - timer.lastRun > timer.interval) {
        this.timersFired += 1;
        try {
          timer.callback();
        } catch (e) {
          this.errors.timer(e);
        }
        timer.lastRun = now;
      }
    }
    for (const [id, ticker] of [...this.tickers]) {
      if (ticker.pending || !this.tickers.has(id)) continue;
      let result: unknown;
      this.tickerCalls += 1;
      try {
        result = ticker.callback();
      } catch (e) {
        this.errors.ticker(e);
        continue;
      }
      if (result !== null && result !== undefined && typeof (result as PromiseLike<unknown>).then === 'function') {
        ticker.pending = true;
        (result as PromiseLike<unknown>).then(
          () => this.resolveTicker(ticker),
          // timer.js only clears the pending promise on success: a rejected async ticker never runs again.
          (e) => this.errors.ticker(e),
        );
      }
    }
    if (this.animationFrames.length > 0) {
      const frames = this.animationFrames;
      this.animationFrames = [];
      for (let i = frames.length - 1; i >= 0; i--) {
        try {
          frames[i]?.();
        } catch (e) {
          this.errors.animationFrame(e);
        }
      }
    }
  }

  stats(): TimerStats {
    const { ticksWithWork, timersFired, tickerCalls } = this;
    return { ticksWithWork, timersFired, tickerCalls, pendingTimers: this.timers.size, tickers: this.tickers.size };
  }

  private resolveTicker(ticker: Ticker): void {
    ticker.pending = false;
    this.host.poke(this.host.world.clock.now());
  }

  nextWake(): number {
    if (this.animationFrames.length > 0) return 0;
    for (const ticker of this.tickers.values()) if (!ticker.pending) return 0;
    let wake = Number.POSITIVE_INFINITY;
    for (const timer of this.timers.values()) wake = Math.min(wake, timer.lastRun + timer.interval + 1);
    return wake;
  }

  clear(): void {
    this.timers.clear();
    this.tickers.clear();
    this.animationFrames = [];
  }
}
