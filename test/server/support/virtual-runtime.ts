import { vi } from 'vitest';
import type { BridgeRuntime } from '../../../server/kernel/server-port.js';
import { loadFromSource } from './source-modules.js';

/** A fixed start, so timestamps in payloads and panel records are the same on every run. */
export const START_TIME = Date.UTC(2025, 5, 1, 20, 0, 0);

/**
 * The clocks main.ts builds, on vitest's fake clock: vi.setSystemTime moves the wall clock (Date) and leaves the
 * monotonic one (performance) alone, as an admin moving a real server's clock does.
 */
export const virtualClocks = {
  now: () => performance.timeOrigin + performance.now(),
  wallNow: () => Date.now(),
};

/**
 * The runtime main.ts builds, on vitest's fake clock: every wait is virtual, jitter is fixed at its middle, and the
 * optional modules come from source.
 */
export function createVirtualRuntime(): BridgeRuntime {
  return {
    ...virtualClocks,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: () => 0.5,
    load: loadFromSource,
  };
}

export function useVirtualTime(): void {
  vi.useFakeTimers({ now: START_TIME });
}

/** Lets `ms` of virtual time pass, running every timer and the promise work each one starts. */
export async function elapse(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

/** Runs everything that is due now (in-process panel answers, queued stream work) without moving the clock. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 20; round++) await vi.advanceTimersByTimeAsync(0);
}

/** Lets virtual time pass in small steps until `promise` settles (at most `limitMs`), and returns its value. */
export async function waitFor<T>(promise: Promise<T>, limitMs = 60_000, stepMs = 50): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  await settle();
  for (let waited = 0; !settled && waited < limitMs; waited += stepMs) await elapse(stepMs);
  if (!settled) throw new Error(`still pending after ${limitMs} ms of virtual time`);
  return watched;
}

/**
 * A runtime that can be torn down as FXServer tears down a stopped resource's runtime: after `kill()`, nothing it
 * started completes (answers and waits hang forever), so only what the bridge wrote to KVP outlives it.
 */
export function createMortalRuntime(): { runtime: BridgeRuntime; kill(): void } {
  let alive = true;
  const never = new Promise<never>(() => {});
  const unlessDead = <T>(value: T): T | Promise<never> => (alive ? value : never);
  return {
    runtime: {
      ...virtualClocks,
      sleep: (ms) => (alive ? new Promise<void>((resolve) => setTimeout(resolve, ms)).then(unlessDead) : never),
      random: () => 0.5,
      load: loadFromSource,
      fetch: (input, init) => (alive ? globalThis.fetch(input, init).then(unlessDead) : never),
    },
    kill() {
      alive = false;
    },
  };
}
