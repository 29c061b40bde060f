// A TCP proxy on loopback between one simulated server and its Redis: the network link of that server alone, to cut
// and heal. A cut comes in two kinds, and a bridge must survive both:
// - `reset`: every connection is dropped and every new one is reset at once, as when the far host is down or a
//   firewall rejects: the client's socket errors at once, and ioredis reconnects (and fails) on its own schedule.
// - `blackhole`: nothing passes and nothing answers, as when a route drops packets: the client's socket stays open
//   and each command only times out. What was sent meanwhile is held and delivered once the link heals, as TCP's
//   retransmission delivers it: a command the client gave up on may still run in Redis.
// `retarget` points the proxy at another port: a failover to a promoted replica behind one address.
import { createServer, Socket } from 'node:net';

export type CutMode = 'reset' | 'blackhole';

export interface TcpProxy {
  /** The loopback port clients connect to. */
  readonly port: number;
  /** The loopback port it forwards to. */
  readonly target: number;
  /** Whether the link is cut now, and how. */
  readonly cut: CutMode | undefined;
  /** Connections open through it. */
  readonly connections: number;
  /**
   * The local port of every connection it has made to its target, open or closed: the address Redis gives a client
   * (`CLIENT LIST`, `MONITOR`), so a command seen there is known to come through this proxy.
   */
  readonly localPorts: ReadonlySet<number>;
  /** Cuts the link (see the file's header). Cutting again with the other mode switches to it. */
  cutLink(mode: CutMode): void;
  /** The link works again: held data flows (a black hole), new connections are forwarded. */
  heal(): void;
  /** Forwards new connections to `port`; every connection open now is dropped, as a failover drops them. */
  retarget(port: number): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  /** Connected once the link lets the connection through. */
  upstream: Socket | undefined;
  /** Piped both ways now. */
  flowing: boolean;
}

/** Starts a proxy on a free loopback port that forwards to `127.0.0.1:<target>`. */
export async function startTcpProxy(target: number): Promise<TcpProxy> {
  let forwardTo = target;
  let mode: CutMode | undefined;
  const pairs = new Set<Pair>();
  const localPorts = new Set<number>();

  const drop = (pair: Pair) => {
    if (!pairs.delete(pair)) return;
    pair.client.resetAndDestroy();
    pair.upstream?.resetAndDestroy();
  };

  // Sockets start paused (pauseOnConnect) and are read only through the pipes: while held, nothing is read, so the
  // kernel's buffers fill and TCP's flow control keeps the rest with the sender until the link heals.
  const flow = (pair: Pair) => {
    const { client, upstream } = pair;
    if (!upstream) return connect(pair);
    if (pair.flowing) return;
    pair.flowing = true;
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = (pair: Pair) => {
    const { client, upstream } = pair;
    pair.flowing = false;
    if (!upstream) return;
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const connect = (pair: Pair) => {
    const upstream = new Socket();
    pair.upstream = upstream;
    upstream.pause();
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    upstream.connect(forwardTo, '127.0.0.1', () => {
      if (upstream.localPort !== undefined) localPorts.add(upstream.localPort);
      if (mode === undefined) flow(pair);
    });
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: undefined, flowing: false };
    pairs.add(pair);
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    // In a black hole the connection is held unconnected until the link heals.
    if (mode === undefined) connect(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('tcp proxy: no port');

  return {
    port: address.port,
    get target() {
      return forwardTo;
    },
    get cut() {
      return mode;
    },
    get connections() {
      return pairs.size;
    },
    localPorts,
    cutLink(next) {
      mode = next;
      for (const pair of [...pairs]) {
        if (next === 'reset') drop(pair);
        else hold(pair);
      }
    },
    heal() {
      mode = undefined;
      for (const pair of [...pairs]) flow(pair);
    },
    retarget(port) {
      forwardTo = port;
      for (const pair of [...pairs]) drop(pair);
    },
    close() {
      for (const pair of [...pairs]) drop(pair);
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
