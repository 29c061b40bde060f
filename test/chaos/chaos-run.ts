// One randomized fault test in Jepsen's manner (docs/testing.md, "The chaos test"): fast-check draws a sequence of
// operations and faults, runs it on a fresh chaos world, heals everything, waits until the world is quiet, and checks
// the record (chaos-checks.ts). A failing sequence is shrunk to a small one; the seed and the path replay it:
// `npm run chaos -- --seed S --path P --replay-path R`.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { type CheckName, check, type Violation } from './chaos-checks.js';
import { type ChaosModel, chaosCommands, initialModel } from './chaos-operations.js';
import { ChaosWorld } from './chaos-world.js';
import { untilQuiet } from './quiescence.js';

export interface ChaosOptions {
  /** How many sequences (fast-check's numRuns). */
  runs: number;
  seed?: number;
  /** fast-check's path of a failure, with `seed`, to replay it. */
  path?: string;
  /** The replay path fc.commands printed for that failure, so the very sequence comes back. */
  replayPath?: string;
  /** The longest sequence drawn. */
  maxCommands?: number;
  /** The checks that fail a run (all four by default). */
  checks?: readonly CheckName[];
  /** Stop at the first failure without shrinking it (the default when replaying a `path`). */
  endOnFailure?: boolean;
  servers?: number;
  livenessMs?: number;
  /** Print each operation as it runs. */
  echo?: boolean;
  /** Called after each run with its length (ms) and whether it failed. */
  onRun?: (run: { ms: number; failed: boolean }) => void;
}

/** A run that broke a check: the violations, what the world did, and where each server's console was written. */
export class ChaosFailure extends Error {
  constructor(
    readonly violations: readonly Violation[],
    readonly log: readonly string[],
    readonly consoles: string,
  ) {
    super(
      [
        `${violations.length} violation(s):`,
        ...violations.map((violation) => `  (${violation.check}) ${violation.text}`),
        'what the world did:',
        ...log.map((line) => `  ${line}`),
        `the servers' consoles: ${consoles}`,
      ].join('\n'),
    );
    this.name = 'ChaosFailure';
  }
}

/** The longest sequence drawn unless told: a path replays only with the same. */
export const MAX_COMMANDS = 16;

export function chaosProperty(options: ChaosOptions) {
  const servers = options.servers ?? 3;
  const livenessMs = options.livenessMs ?? 1_500;
  const sequences = fc.commands(chaosCommands, {
    maxCommands: options.maxCommands ?? MAX_COMMANDS,
    size: 'max',
    replayPath: options.replayPath,
  });
  return fc.asyncProperty(sequences, async (commands) => {
    const started = Date.now();
    const world = await ChaosWorld.start({ servers, livenessMs, echo: options.echo });
    let failed = true;
    try {
      await fc.asyncModelRun(() => ({ model: initialModel(servers), real: world }), commands);
      await world.healAll();
      const writeConsoles = () => {
        const consoles = join(tmpdir(), `bridge-chaos-${process.pid}.log`);
        writeFileSync(consoles, `${world.log.join('\n')}\n\n${world.consoles()}\n`);
        return consoles;
      };
      // A world that never settles is a failure too, and its consoles say why.
      await untilQuiet(world).catch((error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        throw new Error(`${text}\nthe servers' consoles: ${writeConsoles()}`);
      });
      const violations = check(world.record(), options.checks);
      if (violations.length > 0) throw new ChaosFailure(violations, world.log, writeConsoles());
      failed = false;
    } finally {
      await world.close();
      options.onRun?.({ ms: Date.now() - started, failed });
    }
  });
}

export type ChaosDetails = fc.RunDetails<[Iterable<fc.AsyncCommand<ChaosModel, ChaosWorld>>]>;

/** Runs the property; the details say whether it failed, with the seed, the path and the shrunk sequence. */
export function runChaos(options: ChaosOptions): Promise<ChaosDetails> {
  return fc.check(chaosProperty(options), {
    numRuns: options.runs,
    seed: options.seed,
    path: options.path,
    endOnFailure: options.endOnFailure ?? options.path !== undefined,
  });
}

/** The replay path fc.commands writes in fast-check's report (a `replayPath="…"` comment), for `--replay-path`. */
const replayPathIn = (text: string) => /replayPath="([^"]*)"/.exec(text)?.[1];

/**
 * The report of a run: fast-check's (the seed, the path, the shrunk sequence), the violations or the error of the
 * shrunk sequence, and the command that replays it.
 */
export function chaosReport(details: ChaosDetails, options: Partial<ChaosOptions> = {}): string {
  if (!details.failed) return `${details.numRuns} run(s) passed (seed ${details.seed})`;
  const report = fc.defaultReportMessage(details) ?? 'failed';
  const replayPath = replayPathIn(report);
  // The options that shape the sequence drawn, so the path leads to the same one.
  const replay = [
    'npm run chaos --',
    `--seed ${details.seed}`,
    `--path "${details.counterexamplePath ?? ''}"`,
    ...(replayPath ? [`--replay-path "${replayPath}"`] : []),
    `--max-commands ${options.maxCommands ?? MAX_COMMANDS}`,
    ...(options.livenessMs === undefined ? [] : [`--liveness-ms ${options.livenessMs}`]),
    ...(options.checks === undefined ? [] : [`--checks ${options.checks.join('')}`]),
  ].join(' ');
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `${report}\n\n${error}\n\nreplay it: ${replay}`;
}
