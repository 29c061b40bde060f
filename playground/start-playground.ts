import { createMockPanel, type MockPanel, type MockPanelOptions, startMockPanelServer } from '../mock-panel/index.js';
import {
  findRedisServer,
  REDIS_SERVER_INSTALL,
  type RedisServer,
  startRedisServer,
} from '../sim/community/redis-server.js';
import type { Playground, PlaygroundOptions } from './playground.js';
import { PlaygroundServers } from './playground-servers.js';
import { playgroundHandlers } from './routes.js';

/** Joined at start, so the dashboard has someone to put on duty: two departments, one, and none. */
export const DEMO_PLAYERS = ['284619375016482817', '1039284756102938475', '417293856102947583'] as const;
/** An account the panel does not know: joining it shows what an unregistered player sees. */
export const UNREGISTERED = { chatId: '999999999999999999', name: 'Unregistered player' } as const;

export interface RunningPlayground {
  /** The mock panel's address; the dashboard is at `${url}/`. */
  url: string;
  panel: MockPanel;
  /** The first server's playground (the only one without `servers`). */
  playground: Playground;
  /** Every server, and the Redis they share when they do. */
  servers: PlaygroundServers;
  close(): Promise<void>;
}

/** redis-server is missing where the playground was asked to start one: what to install, or how to do without. */
export class RedisServerMissing extends Error {
  constructor(servers: number) {
    super(
      `--servers ${servers} makes the servers one community through a Redis the playground starts, and redis-server is not installed here. Install it (Debian and Ubuntu: sudo ${REDIS_SERVER_INSTALL}; it need not run, the playground starts its own on a free port), or run the servers without Redis, each bridge alone: npm start -- --servers ${servers} --no-redis`,
    );
  }
}

/**
 * The mock panel on a socket with the dashboard and the playground's routes, and the bridge in one simulated server
 * (or `servers` of them, behind the same IP) pointed at it, with the demo players joined (taking turns between the
 * servers). With two servers or more and `redis` not false, a redis-server on a free loopback port makes them one
 * community (BRIDGE_REDIS_URL); it is stopped with them.
 */
export async function startPlaygroundWithPanel(
  options: MockPanelOptions & {
    port?: number;
    host?: string;
    demoPlayers?: readonly string[];
    /** The bridge's `Config.RefreshIntervalMs` (npm start -- --refresh-interval 15s). */
    refreshIntervalMs?: number;
    /** More lines for the bridge's config.lua (tests). */
    bridgeConfig?: readonly string[];
    /** More resources for every simulated server, started after the bridge (npm start -- --resource ../my-mdt). */
    resources?: PlaygroundOptions['resources'];
    /** More server.cfg lines for every simulated server (npm start -- --cfg extra.cfg). */
    serverCfg?: PlaygroundOptions['serverCfg'];
    /** Hears every console line of every server. */
    echo?: PlaygroundOptions['echo'];
    /** How many simulated servers (npm start -- --servers 2); 1 by default. */
    servers?: number;
    /** With two servers or more: whether they share a Redis (npm start -- --no-redis: false); true by default. */
    redis?: boolean;
  },
): Promise<RunningPlayground> {
  const {
    port,
    host,
    demoPlayers = DEMO_PLAYERS,
    refreshIntervalMs,
    bridgeConfig,
    resources,
    serverCfg,
    echo,
    servers: count = 1,
    redis: withRedis = true,
    ...panelOptions
  } = options;
  // Before anything listens: a missing redis-server is the tester's to fix, and nothing need be stopped.
  if (count > 1 && withRedis && !findRedisServer()) throw new RedisServerMissing(count);
  const panel = createMockPanel(panelOptions);
  let servers: PlaygroundServers | undefined;
  const server = await startMockPanelServer({
    panel,
    port,
    host,
    handlers: playgroundHandlers(() => servers, options.token),
  });
  let redis: RedisServer | undefined;
  try {
    if (count > 1 && withRedis) redis = await startRedisServer();
    const users = () => [...panel.store.users.all().map(({ chatId, name }) => ({ chatId, name })), UNREGISTERED];
    servers = await PlaygroundServers.start(
      count,
      {
        apiBase: server.url,
        token: options.token,
        users,
        refreshIntervalMs,
        config: bridgeConfig,
        resources,
        serverCfg,
        echo,
        // The panel's off call does not say why; the playground sees the game side and tells the dashboard.
        onOffDuty: (chatId, departmentId, reason) => panel.store.duty.noteEndReason(chatId, departmentId, reason),
      },
      redis,
    );
    for (const [index, chatId] of demoPlayers.entries()) await servers.server((index % count) + 1).join(chatId);
  } catch (error) {
    if (servers) await servers.close();
    else await redis?.stop();
    await server.close();
    throw error;
  }
  const started = servers;
  return {
    url: server.url,
    panel,
    playground: started.server(1),
    servers: started,
    close: async () => {
      await started.close();
      await server.close();
    },
  };
}
