import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { loadMockPanelData } from '../../mock-panel/data/load.js';
import { type KeepAliveGet, openKeepAliveGet } from '../support/keep-alive-get.js';
import { percentile } from '../support/stats.js';
import type { ThroughputServerMessage } from '../support/throughput-server.js';

export interface ThroughputOptions {
  /** Concurrent request loops of the client, each over its own kept-alive connection. */
  concurrency: number;
  /** Requests before the measured window, to let each server's JIT settle. */
  warmUpMs: number;
  measureMs: number;
  /** The mock panel's limit for the run: raised as a load tester raises it (`--rate-limit`), so nothing is a 429. */
  rateLimit: { limit: number; windowMs: number };
}

export interface ServerThroughput {
  server: 'mock panel' | 'bare node:http' | 'node:http + Fetch Request/Response';
  requests: number;
  /** Answers other than 200, or failed requests: any makes the figures meaningless. */
  failures: number;
  requestsPerS: number;
  p50Ms: number | undefined;
  p99Ms: number | undefined;
  /** CPU time of the server process per request: the least noisy figure on a shared machine. */
  serverCpuUsPerRequest: number;
  /** Share of one core the server process used in the measured window (1 = a whole core). */
  serverCpuShare: number;
  /** The same for the load client (this process): well under 1 means the client was not the bottleneck. */
  clientCpuShare: number;
}

export interface MockPanelThroughputResult {
  route: string;
  bodyBytes: number;
  concurrency: number;
  measureS: number;
  mock: ServerThroughput;
  bare: ServerThroughput;
  /**
   * The same bytes through the mock panel's Fetch adapter alone (a Request with its abort signal per message, a
   * Response sent back, no handler): what any Fetch-based handler costs before it does anything.
   */
  fetchOnly: ServerThroughput;
  /** mock requests/s over bare requests/s. */
  ratio: number;
  /** fetchOnly requests/s over bare requests/s: the most the ratio can be while requests go through Fetch objects. */
  fetchOnlyRatio: number;
}

const TOKEN = 'bench-throughput-token';
const SERVER_SCRIPT = fileURLToPath(new URL('../support/throughput-server.ts', import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  cpuUs(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(args: string[]): Promise<Running> {
  // tsx's loader, so the child runs the TypeScript sources as the bench does. BENCH_PANEL_CPU_PROF=<dir> writes
  // each server's CPU profile there (node --cpu-prof), to see where the mock panel's time goes.
  const profileDir = process.env.BENCH_PANEL_CPU_PROF;
  const execArgv = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])];
  const child = fork(SERVER_SCRIPT, args, { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = async () => {
    const [message] = (await once(child, 'message')) as [ThroughputServerMessage];
    return message;
  };
  const first = await next();
  if (!('url' in first)) throw new Error('the throughput server did not say where it listens');
  return {
    child,
    url: first.url,
    async cpuUs() {
      const answer = next();
      child.send('cpu');
      const message = await answer;
      if (!('cpuUs' in message)) throw new Error('the throughput server did not report its CPU time');
      return message.cpuUs;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // A disconnect, not a signal: the child exits on its own, so a --cpu-prof profile gets written.
      const exited = once(child, 'exit');
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

/** One GET with node:http, for the mock panel's answer the bare server is to send. */
function sample(url: URL): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = get(url, { headers: { authorization: `Bearer ${TOKEN}` } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
  });
}

const clientCpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** A closed loop: `concurrency` loops each send the next request when the last is answered, until the window ends. */
async function load(
  running: Running,
  path: string,
  options: ThroughputOptions,
): Promise<Omit<ServerThroughput, 'server'>> {
  const url = new URL(path, running.url);
  const connections = await Promise.all(
    Array.from({ length: options.concurrency }, () => openKeepAliveGet(url, { authorization: `Bearer ${TOKEN}` })),
  );
  const latencies: number[] = [];
  let failures = 0;
  let measuring = false;
  let stopAt = performance.now() + options.warmUpMs;
  const loop = async (connection: KeepAliveGet) => {
    while (performance.now() < stopAt) {
      const sent = performance.now();
      const status = await connection.get().catch(() => 0);
      if (!measuring) continue;
      if (status === 200) latencies.push(performance.now() - sent);
      else failures++;
      // A connection the server dropped stays dropped: the rest of the loop would only count failures.
      if (status === 0) return;
    }
  };
  try {
    await Promise.all(connections.map(loop));
    measuring = true;
    const serverCpuBefore = await running.cpuUs();
    const clientCpuBefore = clientCpuUs();
    const started = performance.now();
    stopAt = started + options.measureMs;
    await Promise.all(connections.map(loop));
    const elapsedMs = performance.now() - started;
    const clientCpu = clientCpuUs() - clientCpuBefore;
    const serverCpu = (await running.cpuUs()) - serverCpuBefore;
    return {
      requests: latencies.length,
      failures,
      requestsPerS: latencies.length / (elapsedMs / 1000),
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      serverCpuUsPerRequest: serverCpu / Math.max(1, latencies.length),
      serverCpuShare: serverCpu / (elapsedMs * 1000),
      clientCpuShare: clientCpu / (elapsedMs * 1000),
    };
  } finally {
    for (const connection of connections) connection.close();
  }
}

/**
 * The mock panel's departments GET against a bare node:http server answering the same bytes, one after the other
 * (never both at once), with the same client and concurrency. Each server runs in a child process.
 */
export async function runMockPanelThroughput(options: ThroughputOptions): Promise<MockPanelThroughputResult> {
  const chatId = loadMockPanelData().users[0]?.chatId;
  if (!chatId) throw new Error('the default mock-panel data has no user');
  const route = `/api/leo/user/${chatId}/departments`;

  const mockServer = await startServer([
    'mock',
    TOKEN,
    String(options.rateLimit.limit),
    String(options.rateLimit.windowMs),
  ]);
  const others: Running[] = [];
  try {
    const answer = await sample(new URL(route, mockServer.url));
    if (answer.status !== 200) throw new Error(`the mock panel answered ${answer.status} to ${route}`);
    const body = answer.body;
    // Started now, before anything is measured: a server waiting for its turn costs the others nothing.
    others.push(...(await Promise.all(['bare', 'fetch'].map((kind) => startServer([kind, body.toString('base64')])))));
    const [bareServer, fetchServer] = others as [Running, Running];
    const mock: ServerThroughput = { server: 'mock panel', ...(await load(mockServer, route, options)) };
    await mockServer.stop();
    const bare: ServerThroughput = { server: 'bare node:http', ...(await load(bareServer, route, options)) };
    await bareServer.stop();
    const fetchOnly: ServerThroughput = {
      server: 'node:http + Fetch Request/Response',
      ...(await load(fetchServer, route, options)),
    };
    return {
      route: '/api/leo/user/:chatId/departments',
      bodyBytes: body.byteLength,
      concurrency: options.concurrency,
      measureS: options.measureMs / 1000,
      mock,
      bare,
      fetchOnly,
      ratio: mock.requestsPerS / bare.requestsPerS,
      fetchOnlyRatio: fetchOnly.requestsPerS / bare.requestsPerS,
    };
  } finally {
    for (const server of [mockServer, ...others]) await server.stop();
  }
}
