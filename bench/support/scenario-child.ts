// One scenario run in a process of its own (see isolated-scenarios.ts): gets the scenario's name and options over
// IPC, runs it, sends back the result with what the process cost, and exits (simulated clients and keep-alive
// sockets may still hold the event loop).
import { runClusterStorm } from '../scenarios/cluster-storm.js';
import { runCrashRecovery } from '../scenarios/crash-recovery.js';
import { runIdle } from '../scenarios/idle.js';
import { runJoinStorm } from '../scenarios/join-storm.js';
import { runOnDutyRevalidation } from '../scenarios/on-duty-revalidation.js';
import { runOutageWithRestart } from '../scenarios/outage-restart.js';
import { runTxAdminShutdown } from '../scenarios/txadmin-shutdown.js';

export const scenarios = {
  runJoinStorm,
  runOutageWithRestart,
  runOnDutyRevalidation,
  runCrashRecovery,
  runClusterStorm,
  runIdle,
  runTxAdminShutdown,
};

export type ScenarioName = keyof typeof scenarios;

export interface ScenarioRequest<Name extends ScenarioName = ScenarioName> {
  name: Name;
  options: Parameters<(typeof scenarios)[Name]>[0];
}

export interface ScenarioReply {
  result: unknown;
  /** CPU seconds (user + system) and peak RSS of this process. */
  cpuS: number;
  maxRssMb: number;
}

process.once('message', async (message: ScenarioRequest) => {
  const run = scenarios[message.name] as (options: unknown) => Promise<unknown>;
  const result = await run(message.options);
  const usage = process.resourceUsage();
  const reply: ScenarioReply = {
    result,
    cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    maxRssMb: usage.maxRSS / 1024,
  };
  process.send?.(reply, () => process.exit(0));
});
