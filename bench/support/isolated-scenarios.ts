// The bench's scenarios, each run in a child process of its own: a scenario's simulated players (a vm context and
// a Lua state each), panel and garbage go with its process, so the bench's peak memory is the largest scenario's,
// not the sum of all, and no scenario pays for the garbage of the one before. bench/index.ts runs them one at a
// time, but for the real-time storm, which mostly waits.
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import type { runClusterStorm as clusterStorm } from '../scenarios/cluster-storm.js';
import type { runCrashRecovery as crashRecovery } from '../scenarios/crash-recovery.js';
import type { runIdle as idle } from '../scenarios/idle.js';
import type { runJoinStorm as joinStorm } from '../scenarios/join-storm.js';
import type { runOnDutyRevalidation as onDutyRevalidation } from '../scenarios/on-duty-revalidation.js';
import type { runOutageWithRestart as outageWithRestart } from '../scenarios/outage-restart.js';
import type { runTxAdminShutdown as txAdminShutdown } from '../scenarios/txadmin-shutdown.js';
import { buildScenarioChild } from './child-bundle.js';
import type { ScenarioName, ScenarioReply, ScenarioRequest } from './scenario-child.js';

let bundled: Promise<string> | undefined;
let realTimeChildren = 0;

/**
 * A 2048-player scenario holds about 550 MB of heap (a vm context per client) and 300 MB of Lua states (wasm
 * memory); V8 let the naive storm's garbage take the heap to more than twice that before a full collection (1.6 GB
 * RSS). Growing the heap by at most a fifth between full collections keeps every scenario under 1 GB; a young
 * generation twice the default lets more of a request's short-lived objects die young, which buys back most of the
 * time the extra collections cost.
 */
const CHILD_FLAGS = ['--max-semi-space-size=32', '--heap-growing-percent=20'];
/** `BENCH_CHILD_FLAGS="--cpu-prof --cpu-prof-dir=prof" npm run bench` profiles each scenario (replaces CHILD_FLAGS). */
const childFlags = () => process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? CHILD_FLAGS;

/** What each child cost, in the order they ended (printed with the bench's progress). */
export interface ChildCost {
  label: string;
  wallS: number;
  cpuS: number;
  maxRssMb: number;
}

let onCost: (cost: ChildCost) => void = () => {};

/** Called with each child's cost as it ends. */
export function reportChildCosts(listener: (cost: ChildCost) => void): void {
  onCost = listener;
}

async function inChild<Name extends ScenarioName>(
  name: Name,
  options: ScenarioRequest<Name>['options'],
  label: string,
  realTime = false,
) {
  bundled ??= buildScenarioChild();
  const bundle = await bundled;
  const started = performance.now();
  return new Promise<unknown>((resolve, reject) => {
    const child = fork(bundle, [], {
      execArgv: childFlags(),
      // `advanced`: results keep their undefined fields, as they were in process.
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Virtual time does not care how fast it runs; a real-time storm running beside it does.
    if (realTime) realTimeChildren += 1;
    else if (realTimeChildren > 0 && child.pid !== undefined) setPriority(child.pid, 10);
    let reply: ScenarioReply | undefined;
    child.once('message', (message) => {
      reply = message as ScenarioReply;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (realTime) realTimeChildren -= 1;
      if (!reply) {
        reject(new Error(`bench: ${label} ended without a result (exit ${code ?? signal})`));
        return;
      }
      onCost({ label, wallS: (performance.now() - started) / 1000, cpuS: reply.cpuS, maxRssMb: reply.maxRssMb });
      resolve(reply.result);
    });
    child.send({ name, options } satisfies ScenarioRequest<Name>);
  });
}

export const runJoinStorm = (options: Parameters<typeof joinStorm>[0]) =>
  inChild(
    'runJoinStorm',
    options,
    `join storm, ${options.players} players, ${options.implementation}, ${options.clock} time`,
    options.clock === 'real',
  ) as ReturnType<typeof joinStorm>;

export const runOutageWithRestart = (options: Parameters<typeof outageWithRestart>[0]) =>
  inChild('runOutageWithRestart', options, `panel outage, ${options.implementation}`) as ReturnType<
    typeof outageWithRestart
  >;

export const runOnDutyRevalidation = (options: Parameters<typeof onDutyRevalidation>[0]) =>
  inChild('runOnDutyRevalidation', options, `on-duty revalidation, ${options.players} players`) as ReturnType<
    typeof onDutyRevalidation
  >;

export const runCrashRecovery = (options: Parameters<typeof crashRecovery>[0]) =>
  inChild('runCrashRecovery', options, `crash recovery, ${options.openDuties} open duties`) as ReturnType<
    typeof crashRecovery
  >;

export const runIdle = (options: Parameters<typeof idle>[0]) =>
  inChild('runIdle', options, `idle, ${options.players} online, ${options.onDuty} on duty`) as ReturnType<typeof idle>;

export const runTxAdminShutdown = (options: Parameters<typeof txAdminShutdown>[0]) =>
  inChild(
    'runTxAdminShutdown',
    options,
    `txAdmin shutdown, ${options.onDuty} on duty, notice ${options.noticeAfterMs / 1000} s after the last on`,
  ) as ReturnType<typeof txAdminShutdown>;

export const runClusterStorm = (options: Parameters<typeof clusterStorm>[0]) =>
  inChild(
    'runClusterStorm',
    options,
    `cluster storm, ${options.servers} × ${options.playersPerServer} players, Redis ${options.redis}`,
    true,
  ) as ReturnType<typeof clusterStorm>;
