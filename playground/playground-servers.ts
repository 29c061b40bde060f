import type { RedisServer } from '../sim/community/redis-server.js';
import { Playground, PlaygroundError, type PlaygroundOptions, type PlaygroundState } from './playground.js';

const SHOWN = 100;

/** One server of the community as the dashboard's summary shows it. */
export interface PlaygroundServerSummary {
  server: number;
  players: number;
  onDuty: number;
  /** `GlobalState['bridge:onDutyCount']`: this server's own. */
  onDutyCount: Record<string, number> | null;
  /** `GlobalState['bridge:communityOnDutyCount']` as this server holds it. */
  communityOnDutyCount: Record<string, number> | null;
}

/**
 * What the dashboard polls: every server's players, events and console lines together, each tagged with its
 * server, and one summary per server. With one server, exactly what that server's playground shows, plus its
 * summary. `onDutyCount` and `communityOnDutyCount` are the first server's.
 */
export interface PlaygroundServersState extends PlaygroundState {
  servers: PlaygroundServerSummary[];
  /** The community's Redis (its `BRIDGE_REDIS_URL`), or null: every server alone. */
  redis: { url: string; running: boolean } | null;
}

/**
 * The playground's simulated servers, one or several behind one IP against the one mock panel, and the Redis they
 * share when there is one (started for them, stopped with them).
 */
export class PlaygroundServers {
  private constructor(
    readonly servers: readonly Playground[],
    private readonly redis: RedisServer | undefined,
  ) {}

  /** Starts `count` servers (numbered from 1), each with its own KVP, all naming the same Redis when given one. */
  static async start(
    count: number,
    options: Omit<PlaygroundOptions, 'server' | 'redisUrl'>,
    redis?: RedisServer,
  ): Promise<PlaygroundServers> {
    const servers: Playground[] = [];
    try {
      for (let server = 1; server <= count; server++) {
        servers.push(await Playground.start({ ...options, server, redisUrl: redis?.url() }));
      }
    } catch (error) {
      await Promise.all(servers.map((playground) => playground.close()));
      throw error;
    }
    return new PlaygroundServers(servers, redis);
  }

  /** Server `n` (from 1); a number no server has is a 404 for the dashboard. */
  server(n: number): Playground {
    const found = this.servers.find((playground) => playground.server === n);
    if (!found) throw new PlaygroundError('server_not_found', `no server ${n}: the playground runs ${this.count}`);
    return found;
  }

  get count(): number {
    return this.servers.length;
  }

  state(): PlaygroundServersState {
    const states = this.servers.map((playground) => playground.state());
    const [first] = states as [PlaygroundState, ...PlaygroundState[]];
    const newest = <T extends { at: number }>(lists: T[][]) =>
      lists
        .flat()
        .sort((a, b) => b.at - a.at)
        .slice(0, SHOWN);
    return {
      ...first,
      players: states.flatMap((state) => state.players),
      events: newest(states.map((state) => state.events)),
      console: newest(states.map((state) => state.console)),
      servers: states.map((state, index) => ({
        server: this.servers[index]?.server ?? index + 1,
        players: state.players.length,
        onDuty: state.players.filter((player) => player.onDuty).length,
        onDutyCount: state.onDutyCount,
        communityOnDutyCount: state.communityOnDutyCount,
      })),
      redis: this.redis ? { url: this.redis.url(), running: this.redis.running } : null,
    };
  }

  /**
   * What a tester does to see the community without its Redis: `kill` is kill -9 (the bridges lose it mid-run),
   * `start` starts it again on the same port, empty, as a Redis without persistence comes back.
   */
  async redisControl(action: 'kill' | 'start'): Promise<{ running: boolean }> {
    const { redis } = this;
    if (!redis) throw new PlaygroundError('no_redis', 'the servers run without Redis (npm start -- --servers 2)');
    if (action === 'kill') await redis.kill();
    else if (!redis.running) await redis.restart();
    return { running: redis.running };
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((playground) => playground.close()));
    await this.redis?.stop();
  }
}
