import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// npm test: the static checks (npm run typecheck, lint and deps) beside vitest, not before it. Before it, they held
// the first test back by about 11 s on a two-core machine. Beside it, they use the core that vitest's build and its
// real-time tests leave idle. A failed check's output is printed whole once vitest is done, so it is read last. When
// all pass, vitest's own count stays the last line. Arguments go to vitest (`npm test -- test/e2e`).

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface Command {
  name: string;
  command: string;
  args: string[];
}

interface Finished {
  name: string;
  code: number | null;
  output: string;
}

function run({ name, command, args }: Command, capture: boolean): Promise<Finished> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    const keep = (chunk: string) => {
      output += chunk;
    };
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    child.on('error', (error) => done({ name, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => done({ name, code, output }));
  });
}

/** Runs `main` with its output shown, and the checks beside it with theirs kept; 0 when every one exits 0. */
export async function runChecksBeside(checks: Command[], main: Command): Promise<number> {
  console.log(
    `npm test: ${checks.map((check) => check.name).join(', ')} run beside ${main.name}; a failure is printed at the end`,
  );
  const checked = Promise.all(checks.map((check) => run(check, true)));
  const { code } = await run(main, false);
  const failed = (await checked).filter((check) => check.code !== 0);
  for (const check of failed) process.stdout.write(`\n${check.name} failed:\n${check.output}`);
  if (failed.length > 0) console.log(`\nnpm test failed: ${failed.map((check) => check.name).join(', ')}`);
  return failed.length > 0 || code !== 0 ? 1 : 0;
}

const npmScript = (script: string): Command => ({
  name: `npm run ${script}`,
  command: process.platform === 'win32' ? 'npm.cmd' : 'npm',
  args: ['run', '--silent', script],
});

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runChecksBeside(['typecheck', 'lint', 'deps'].map(npmScript), {
    name: 'vitest',
    command: process.execPath,
    args: [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  });
}
