// A real Redis beside simulated servers: Debian's redis-server, started on a free loopback port in its own
// temporary folder, persisting nothing by itself, and stopped by whoever started it (the tests, the playground's
// `--servers`, the bench's cluster). Not a mock: the bridge's scripts, timeouts and reconnections meet the real
// server. It also plays the faults a real deployment sees (issue 30): a snapshot saved now and restarted from later
// (an older dump.rdb after a reboot), writes paused (`CLIENT PAUSE`), and a replica that lags and is then promoted
// (startReplica, through a TcpProxy that is its replication link).
import { type ChildProcess, spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** How to get redis-server, for every message that says it is missing. */
export const REDIS_SERVER_INSTALL = 'apt-get install redis-server';

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The redis-server binary: `$REDIS_SERVER` when set (a build of one's own, or a path that does not exist to try
 * the message of a machine without it), else the first on PATH or in Debian's and a source install's places.
 */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.REDIS_SERVER !== undefined) return isExecutable(env.REDIS_SERVER) ? env.REDIS_SERVER : undefined;
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const candidates = [...onPath.map((dir) => join(dir, 'redis-server')), '/usr/bin/redis-server'];
  return [...candidates, '/usr/local/bin/redis-server'].find(isExecutable);
}

export interface RedisServerOptions {
  /** `requirepass`: clients must send it (the URL `redis://:<password>@…`). */
  password?: string;
  /** The binary (default: findRedisServer()). */
  binary?: string;
  /**
   * TLS only (`--port 0 --tls-port`, as Debian's redis-server is built with TLS): its certificate and key, and the CA
   * a client trusts. Clients need no certificate of their own. The URL is then `rediss://`.
   */
  tls?: { certFile: string; keyFile: string; caFile: string };
  /** `--replicaof 127.0.0.1 <port>`: a replica of the Redis on that port, read-only until promote(). */
  replicaOf?: number;
}

/** A dump.rdb saved at some moment, to restart a Redis from later (restartFrom). */
export interface RedisSnapshot {
  readonly file: string;
}

export interface RedisServer {
  readonly port: number;
  /** `redis://[:password@]127.0.0.1:<port>/0`, `rediss://` with TLS. */
  url(options?: { password?: string; db?: number }): string;
  /** kill -9: the server vanishes mid-run, connections are cut without a goodbye. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (nothing was persisted). */
  restart(): Promise<void>;
  /** SAVE now, and keep that dump.rdb aside: what Debian's `save` settings would have on disk at this moment. */
  snapshot(): Promise<RedisSnapshot>;
  /**
   * kill -9, then start again on the same port from an older snapshot: the keys as they were when it was taken,
   * everything written since lost (a reboot that loads the last dump.rdb).
   */
  restartFrom(snapshot: RedisSnapshot): Promise<void>;
  /** `CLIENT PAUSE <ms> WRITE|ALL`: Redis holds the clients' writes (or everything) that long, then runs them. */
  pause(ms: number, mode?: 'WRITE' | 'ALL'): Promise<void>;
  /** `REPLICAOF NO ONE`: a replica becomes a primary with what it had replicated. */
  promote(): Promise<void>;
  /** Whether it runs now (not killed, not exited). */
  readonly running: boolean;
  /** Runs one command through a short-lived connection of its own: a look into Redis from outside the bridges. */
  command(...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
}

/** A free loopback port: the system picks one for a listener that is closed at once. */
export function freePort(): Promise<number> {
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
  const binary = options.binary ?? findRedisServer();
  if (!binary) throw new Error(`redis-server is not installed (${REDIS_SERVER_INSTALL})`);
  const dir = mkdtempSync(join(tmpdir(), 'bridge-redis-'));
  const port = await freePort();
  const dump = join(dir, 'dump.rdb');
  let child: ChildProcess | undefined;
  let snapshots = 0;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const { tls } = options;
      const listen = tls
        ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile]
        : ['--port', String(port)];
      if (tls) listen.push('--tls-ca-cert-file', tls.caFile, '--tls-auth-clients', 'no');
      const args = [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
      args.push('--logfile', '', '--daemonize', 'no', '--protected-mode', 'yes');
      // A replica's first sync starts at once (Redis 7 waits 5 s by default, for more replicas to share it).
      args.push('--repl-diskless-sync-delay', '0');
      if (options.password) args.push('--requirepass', options.password, '--masterauth', options.password);
      if (options.replicaOf !== undefined) args.push('--replicaof', '127.0.0.1', String(options.replicaOf));
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

  try {
    await launch();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = ({ password = options.password, db = 0 }: { password?: string; db?: number } = {}) =>
    `${options.tls ? 'rediss' : 'redis'}://${password ? `:${encodeURIComponent(password)}@` : ''}127.0.0.1:${port}/${db}`;
  const command = (...args: string[]) => redisCommand(port, options, args);

  return {
    port,
    url,
    kill,
    async restart() {
      await kill();
      // Empty means empty: a snapshot saved earlier is not loaded.
      rmSync(dump, { force: true });
      await launch();
    },
    async snapshot() {
      await command('SAVE');
      const file = join(dir, `snapshot-${++snapshots}.rdb`);
      renameSync(dump, file);
      return { file };
    },
    async restartFrom({ file }) {
      if (!existsSync(file)) throw new Error(`no snapshot at ${file}`);
      await kill();
      copyFileSync(file, dump);
      await launch();
      rmSync(dump, { force: true });
    },
    async pause(ms, mode = 'WRITE') {
      await command('CLIENT', 'PAUSE', String(ms), mode);
    },
    async promote() {
      await command('REPLICAOF', 'NO', 'ONE');
    },
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    command,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One command over a fresh connection of the caller's own. */
async function redisCommand(port: number, { password, tls }: RedisServerOptions, args: string[]): Promise<unknown> {
  const { Redis } = await import('ioredis');
  const client = new Redis({
    ...{ port, host: '127.0.0.1', password, lazyConnect: true, maxRetriesPerRequest: 0 },
    ...(tls ? { tls: { ca: readFileSync(tls.caFile) } } : {}),
  });
  try {
    await client.connect();
    return await client.call(args[0] as string, ...args.slice(1));
  } finally {
    client.disconnect();
  }
}
