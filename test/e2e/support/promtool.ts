import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { onCi } from '../../support/on-ci.js';

/** Debian's promtool (`apt-get install prometheus`, as .ci/run does), or PROMTOOL_PATH. */
export const PROMTOOL_PATH =
  process.env.PROMTOOL_PATH ??
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'promtool'))
    .find((path) => existsSync(path));

export const hasPromtool = PROMTOOL_PATH !== undefined && existsSync(PROMTOOL_PATH);

/** On CI a missing promtool fails the tests rather than skipping them: .ci/run installs it. */
export const skipWithoutPromtool = !hasPromtool && !onCi;

export const NO_PROMTOOL_MESSAGE =
  `promtool tests skipped: no promtool ${process.env.PROMTOOL_PATH ? `at ${process.env.PROMTOOL_PATH}` : 'on PATH'}. ` +
  "Install Debian's prometheus package (apt-get install prometheus, as .ci/run does) or point PROMTOOL_PATH at one. " +
  'With CI=true they fail instead.';

export interface PromtoolRun {
  status: number | null;
  /** stdout and stderr together, as promtool prints its verdicts to either. */
  output: string;
}

/** Runs `promtool <args>` with `input` on stdin. */
export function promtool(args: readonly string[], input?: string): PromtoolRun {
  if (!hasPromtool || PROMTOOL_PATH === undefined) throw new Error(NO_PROMTOOL_MESSAGE);
  const run = spawnSync(PROMTOOL_PATH, args, { input, encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
