import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './test/long-files-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/between-files.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    // A guard against a hang, not a speed check: with six workers on two cores, a CPU-bound test (a 300-player storm
    // on virtual time, a build) may wait its turn for many seconds on a loaded machine, and failed at 20 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Re-importing zod, msw, rxjs and the simulator for each of the hundred-odd files cost more than half of the
    // suite's time. Files share a worker's module cache instead; test/between-files.ts puts back the globals a file
    // may change, and every file builds its own sims, panels and servers.
    isolate: false,
    // Four workers more than the cores. Most of the longest files wait in real time (a community on a real
    // redis-server, chromium, CLI processes) and use little CPU; with one worker more than the cores, the suite spent
    // more time waiting than computing. On a fresh clone of a loaded 2-core machine, vitest took 220 s with three
    // workers, and 136 s with six, the long files split and started first (docs/budget.md). Eight, under a load of
    // 15, timed some CPU-bound tests out.
    // The files that wait start first (test/long-files-first.ts), so the CPU-bound ones fill the time they wait.
    maxWorkers: availableParallelism() + 4,
    // The storms and the simulator allocate fast and briefly. A larger young generation collects them less often:
    // about a tenth less CPU for the CPU-bound files, on a run that is bound by CPU (docs/budget.md).
    execArgv: ['--max-semi-space-size=64'],
    sequence: { sequencer: LongFilesFirst },
  },
});
