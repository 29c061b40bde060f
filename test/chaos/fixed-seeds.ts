// The randomized fault test in npm test (docs/testing.md, "The chaos test"): a fixed budget of seeds, so CI makes the
// same runs every time. Each seed is one sequence of operations and faults on a fresh world of three servers, one mock
// panel and a real redis-server, checked at quiescence. A failure prints the seed, the sequence and the command that
// replays it and shrinks it (`npm run chaos -- --seed S --path P`). Longer runs: `npm run chaos -- --runs N`.
// The seeds are split across three files of at most about 16 s each, so vitest runs them beside other files.
import { describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis-server.js';
import { chaosReport, runChaos } from './chaos-run.js';

/** Shorter than `npm run chaos`'s 16, to fit npm test's minute. */
const MAX_COMMANDS = 12;

export function describeFixedSeeds(seeds: readonly number[]): void {
  describe.skipIf(!redisAvailable())('randomized faults across the community (fixed seeds)', () => {
    it.each(seeds)(
      'seed %i: the panel and the games agree at quiescence, every off was fenced',
      async (seed) => {
        const options = { runs: 1, seed, maxCommands: MAX_COMMANDS, endOnFailure: true };
        const details = await runChaos(options);
        expect(details.failed, chaosReport(details, options)).toBe(false);
      },
      90_000,
    );
  });
}
