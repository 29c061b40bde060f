// A replica of a real Redis that can be made to lag, then promoted: a failover that loses the last writes. Its
// replication link goes through a TcpProxy, so the lag is exact: from the moment the link is held, nothing the
// primary takes reaches the replica (a replica whose link stalls, or that fell behind under load).
import { type RedisServer, startRedisServer } from './redis-server.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface RedisReplica {
  readonly server: RedisServer;
  /** Its replication link from the primary. */
  readonly link: TcpProxy;
  /** Until it holds every write the primary has taken so far. */
  inSync(timeoutMs?: number): Promise<void>;
  /** From now on it receives nothing: what the primary takes is not replicated (promote() then loses it). */
  lag(): void;
  stop(): Promise<void>;
}

const field = (info: unknown, name: string): string | undefined =>
  new RegExp(`^${name}:(.*)$`, 'm').exec(String(info))?.[1]?.trim();

/** A replica of `primary` on a free port, in sync once this resolves. */
export async function startReplica(primary: RedisServer, options: { password?: string } = {}): Promise<RedisReplica> {
  const link = await startTcpProxy(primary.port);
  const server = await startRedisServer({ replicaOf: link.port, password: options.password });
  const inSync = async (timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [mine, theirs] = await Promise.all([
        server.command('INFO', 'replication'),
        primary.command('INFO', 'replication'),
      ]);
      const synced =
        field(mine, 'master_link_status') === 'up' &&
        field(mine, 'master_repl_offset') === field(theirs, 'master_repl_offset');
      if (synced) return;
      if (Date.now() > until) throw new Error(`the replica did not catch up:\n${String(mine)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await inSync();
  return {
    server,
    link,
    inSync,
    lag: () => link.cutLink('blackhole'),
    async stop() {
      await server.stop();
      await link.close();
    },
  };
}
