import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/between-files.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Re-importing zod, msw, rxjs and the simulator for each of the hundred-odd files cost more than half of the
    // suite's time. Files share a worker's module cache instead; test/between-files.ts puts back the globals a file
    // may change, and every file builds its own sims, panels and servers.
    isolate: false,
    // vitest's default leaves one core to the main process, which on a 2-core machine runs the files one at a time;
    // the main process mostly waits on the workers. One worker more than the cores fills the time the real-time
    // files (community storms, chromium, CLI processes) spend waiting; a second more cost more CPU in module imports
    // than it saved (2-core machine under load: 145 s with three workers, 150 s with four).
    maxWorkers: availableParallelism() + 1,
  },
});
