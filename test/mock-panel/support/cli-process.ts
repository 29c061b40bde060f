import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

const children: ChildProcess[] = [];

/** Kills whatever a test left running (use in afterEach). */
export function killCliProcesses(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Runs a TS entry point of the repository with tsx, as `npm run <script>` does, and reads its output by line. */
export function startCli(script: string, args: string[], env: Record<string, string | undefined> = {}) {
  const { LEO_API_TOKEN: _token, CHAT_GUILD_ID: _guild, ...inherited } = process.env;
  const child = spawn(process.execPath, [TSX, script, ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
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
