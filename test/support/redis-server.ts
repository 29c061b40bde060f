// A real Redis for the tests: Debian's redis-server, started on a free loopback port in its own temporary folder,
// persisting nothing, and stopped by the test. Not a mock: the bridge's scripts, timeouts and reconnections meet the
// real server. `.ci/run` installs redis-server; under CI=true a missing one fails the tests instead of skipping them.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];
export const REDIS_SERVER_BINARY = CANDIDATES.find((file) => existsSync(file));

/**
 * Whether the Redis tests can run here. Without redis-server they are skipped on a developer's machine and fail in
 * CI, where `.ci/run` must have installed it: `describe.skipIf(!redisAvailable())`.
 */
export function redisAvailable(): boolean {
  if (REDIS_SERVER_BINARY) return true;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(
      'redis-server is not installed, and CI must run the Redis tests: .ci/run installs it (apt-get install redis-server)',
    );
  }
  return false;
}

export interface RedisServerOptions {
  /** `requirepass`: clients must send it (the URL `redis://:<password>@…`). */
  password?: string;
}

export interface RedisServer {
  readonly port: number;
  /** `redis://[:password@]127.0.0.1:<port>/0`. */
  url(options?: { password?: string; db?: number }): string;
  /** kill -9: the server vanishes mid-run, connections are cut without a goodbye. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (nothing was persisted). */
  restart(): Promise<void>;
  /** Runs one command through a short-lived connection of its own: the test's own look into Redis. */
  command(...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
}

/** A free loopback port: the system picks one for a listener that is closed at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (!REDIS_SERVER_BINARY) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const binary = REDIS_SERVER_BINARY;
  const dir = mkdtempSync(join(tmpdir(), 'bridge-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
      args.push('--logfile', '', '--daemonize', 'no', '--protected-mode', 'yes');
      if (options.password) args.push('--requirepass', options.password);
      const started = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          started.stdout?.off('data', onData);
          started.stdout?.resume();
          resolve();
        }
      };
      started.stdout?.on('data', onData);
      started.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      started.once('exit', (code) =>
        reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
      );
      started.once('error', reject);
    });

  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };

  await launch();
  const url = ({ password = options.password, db = 0 }: { password?: string; db?: number } = {}) =>
    `redis://${password ? `:${encodeURIComponent(password)}@` : ''}127.0.0.1:${port}/${db}`;

  return {
    port,
    url,
    kill,
    async restart() {
      await kill();
      await launch();
    },
    command: (...args) => respCommand(port, options.password, args),
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One command over a fresh connection of the test's own. */
async function respCommand(port: number, password: string | undefined, args: string[]): Promise<unknown> {
  const { Redis } = await import('ioredis');
  const client = new Redis({ port, host: '127.0.0.1', password, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return await client.call(args[0] as string, ...args.slice(1));
  } finally {
    client.disconnect();
  }
}
