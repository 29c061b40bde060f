// `npm run chaos -- --runs N [--seed S] [--path P] [--checks abcd] [--max-commands M] [--echo]`: the randomized fault
// test of docs/testing.md ("The chaos test"), longer than npm test's fixed seeds. It builds dist/ first (the servers
// run the built bundles), prints each run's length, and for a failure the seed, the path, the shrunk sequence and
// the command that replays it. Exit code 1 on a failure, 2 on a wrong argument.
import { parseArgs } from 'node:util';
import type { CheckName } from '../test/chaos/chaos-checks.js';
import { type ChaosOptions, chaosReport, runChaos } from '../test/chaos/chaos-run.js';

const USAGE =
  'usage: npm run chaos -- --runs N [--seed S] [--path P [--replay-path R]] [--checks abcd] [--max-commands M] [--liveness-ms L] [--echo]';

function fail(message: string): never {
  process.stderr.write(`chaos: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function wholeNumber(name: string, text: string | undefined, fallback: number | undefined): number | undefined {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) fail(`--${name} must be a whole number, not "${text}"`);
  return Number(text);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      runs: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      'replay-path': { type: 'string' },
      checks: { type: 'string' },
      'max-commands': { type: 'string' },
      'liveness-ms': { type: 'string' },
      echo: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
}
try {
  parsed = parse();
} catch (error) {
  fail((error as Error).message);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const checks = values.checks ?? 'abcd';
if (!/^[abcd]+$/.test(checks)) fail(`--checks takes letters among a, b, c and d, not "${checks}"`);

const runs = wholeNumber('runs', values.runs, values.path === undefined ? 100 : 1) as number;
if (runs < 1) fail('--runs must be at least 1');
const started = Date.now();
let count = 0;
const options: ChaosOptions = {
  runs,
  seed: wholeNumber('seed', values.seed, undefined),
  path: values.path,
  replayPath: values['replay-path'],
  checks: values.checks === undefined ? undefined : ([...checks] as CheckName[]),
  maxCommands: wholeNumber('max-commands', values['max-commands'], undefined),
  livenessMs: wholeNumber('liveness-ms', values['liveness-ms'], undefined),
  echo: values.echo,
  onRun: ({ ms, failed }) => {
    count += 1;
    process.stdout.write(`run ${count}: ${(ms / 1000).toFixed(1)} s${failed ? ', failed' : ''}\n`);
  },
};
let details: Awaited<ReturnType<typeof runChaos>>;
try {
  details = await runChaos(options);
} catch (error) {
  // fast-check throws when a path leads nowhere: another --max-commands than the run that printed it, or a typo.
  fail(`${(error as Error).message}: replay with the options the report printed (--max-commands above all)`);
}
process.stdout.write(`${chaosReport(details, options)}\n`);
process.stdout.write(`${count} world(s) in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.exit(details.failed ? 1 : 0);
