import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cliBundle } from '../../support/cli-bundles.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const children: ChildProcess[] = [];
/** npm's children in their own process group: npm killed leaves the shell and the server behind. */
const groups: number[] = [];

/** Kills whatever a test left running (use in afterEach). */
export function killCliProcesses(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // The whole group has exited already.
    }
  }
}

/**
 * Runs a command's entry point of the repository (`playground/cli.ts`) as a Node process, from the bundle the test
 * run built of it (test/support/cli-bundles.ts), and reads its output by line. `startNpmScript` runs the real `npm
 * run` command, with tsx. Not tsx's own CLI either way: that is a parent process which, on SIGTERM, gives its child
 * 30 ms to say it saw the signal, then 30 ms more, then kills it and exits 143; on a loaded machine a clean stop then
 * failed.
 */
export function startCli(script: string, args: string[], env: Record<string, string | undefined> = {}) {
  return startProcess(process.execPath, [cliBundle(script), ...args], env);
}

/**
 * Runs `npm run <script> -- <args>` itself: npm, the shell it starts and whatever that runs. A signal sent to
 * `child` reaches npm alone, as from a supervisor, `docker stop` or a CI runner, not the whole group as Ctrl+C does.
 */
export function startNpmScript(script: string, args: string[], env: Record<string, string | undefined> = {}) {
  return startProcess('npm', ['run', '--silent', script, '--', ...args], env, true);
}

function startProcess(command: string, args: string[], env: Record<string, string | undefined>, group = false) {
  const { LEO_API_TOKEN: _token, CHAT_GUILD_ID: _guild, ...inherited } = process.env;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  children.push(child);
  if (group && child.pid !== undefined) groups.push(child.pid);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const onLine: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout.push(line);
    for (const listener of onLine) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  /** The first stdout line matching `pattern`, so far or later; fails if the process exits first. */
  const lineMatching = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = stdout.map((line) => pattern.exec(line)).find((candidate) => candidate !== null);
        if (match) resolve(match);
      };
      onLine.push(check);
      check();
      void exited.then((code) => reject(new Error(`exited with ${code} first; stderr: ${stderr.join('')}`)));
    });
  return { child, exited, lineMatching, stdout, stderr: () => stderr.join('') };
}

/** Whether something listens on this loopback port. */
export const isListening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
