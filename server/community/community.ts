// The API the rest of the bridge sees of a community of servers (BRIDGE_REDIS_URL). Types only: everything that
// runs with Redis lives in dist/redis.cjs (server/community/community-entry.ts), loaded only when the convar is set,
// so dist/server.js carries none of it (test/build/bundle-size.test.ts).
import type { Observable } from 'rxjs';
import type { OnDutyCounts } from '../../shared/events.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import type { SharedBudget } from '../panel/index.js';
import type { CommunityProfiles } from '../profiles/index.js';
import type { CommunityDuty, CommunityDutyWiring } from './community-duty.js';
import type { DutyOwners } from './duty-owner-api.js';
import type { HeldCall } from './held-for-redis.js';

/** The connection to the community's Redis. */
export interface CommunityLink {
  /** `redis://host:port/db` as the owner wrote it, the password masked: for log lines and the status. */
  readonly where: string;
  /** The community's id: 16 hex of a hash of BRIDGE_API_BASE as the bridge reads it (communities.ts). */
  readonly id: string;
  /** Every key of this community starts with this: `bridge:<id>:` (never the token). */
  readonly prefix: string;
  /** Whether Redis answers now. */
  readonly isUp: boolean;
  /** Since when (this server's monotonic clock) Redis answers, or has not; undefined until it first did either. */
  readonly since: number | undefined;
  /** Why Redis does not answer: its last error; undefined while it answers. */
  readonly reason: string | undefined;
  /**
   * true when Redis answers, false when it is gone: once the first connection succeeded or failed (the current value
   * to a late subscriber), then each change.
   */
  readonly up$: Observable<boolean>;
  /**
   * Each time Redis answers (the first connection and every reconnection, also to a Redis restarted empty): whoever
   * owns shared state writes again what it owns.
   */
  readonly connected$: Observable<void>;
  /**
   * Runs a command on the community's Redis. Never waits for a connection: while Redis is gone it rejects at once,
   * and a slow Redis rejects after a short timeout. Callers treat a rejection as "Redis is gone" and go on locally.
   */
  call<T = unknown>(command: string, ...args: Array<string | number>): Promise<T>;
  /** Runs a Lua script atomically (EVALSHA, falling back to EVAL when Redis lost its script cache). */
  script<T = unknown>(lua: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<T>;
  /**
   * The messages PUBLISHed on a channel of the community's Redis, on a connection of their own (a subscribing
   * connection can run no other command). Nothing is heard while Redis is gone, and what was published meanwhile is
   * lost: owners of shared state read it again on `connected$`.
   */
  messages$(channel: string): Observable<string>;
}

/** A community member's view of a value read from Redis: what another program wrote there is not trusted. */
export type ReadShared = <T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string } } },
  raw: unknown,
  what: string,
) => T | undefined;

/** The on-duty counts of every server of the community (server/community/community-counts.ts). */
export interface CommunityCounts {
  /** This server's own counts, each time they change: written for the others at once. */
  publish(own: OnDutyCounts): void;
  /** The servers whose counts are alive, this one included, as last read. */
  readonly servers: number;
  /** Every server's counts summed (this server's own as they are now): the current sum first, then each new sum (a
   * beat may repeat one). */
  readonly counts$: Observable<OnDutyCounts>;
  stop(): void;
}

/** What `bridge status` shows of the community, read when the command runs: plain data, on this server's clock. */
export interface CommunitySnapshot {
  id: string;
  /** BRIDGE_API_BASE as the bridge reads it. */
  panel: string;
  /** The Redis URL, masked. */
  where: string;
  up: boolean;
  /** Since when (monotonic) Redis answers, or has not; undefined before its first answer or failure. */
  since: number | undefined;
  /** Why Redis does not answer: the last error, or why the link was never opened. */
  reason: string | undefined;
  /** The servers of the community whose counts are alive (this one included), as last read. */
  serversAlive: number;
  budget: {
    /** The community's budget decides (Redis answers and is fast enough). */
    shared: boolean;
    /** The servers that asked it in the last minute: while it is not shared, this server paces 1/servers. */
    servers: number;
    /** How much longer this server decides alone after Redis was too slow; undefined when it is not. */
    aloneForMs: number | undefined;
  };
}

export interface Community {
  readonly link: CommunityLink;
  /** One panel budget for every server of the community (issue 25 item 2). */
  readonly budget: SharedBudget;
  readonly readShared: ReadShared;
  readonly profiles: CommunityProfiles;
  readonly counts: CommunityCounts;
  /**
   * Who owns each chat account's duty across the community; this server's identity is kept in `store`. None when
   * BRIDGE_REDIS_URL does not read: that server runs alone.
   */
  dutyOwners(store: KeyValueStore): DutyOwners | undefined;
  /** The duty's side of the community on this server (community-duty.ts, in dist/redis.cjs), over its duty owners. */
  duty(owners: DutyOwners, wiring: CommunityDutyWiring): CommunityDuty;
  /** What `bridge status` shows of it, worded (community-status-lines.ts), with what waits for Redis here, at `now`. */
  statusLines(held: readonly HeldCall[], now: number): string[];
  stop(): void;
}

export interface CommunityOptions {
  /** BRIDGE_REDIS_URL as set. */
  url: string;
  /** BRIDGE_REDIS_CA_FILE as a path on disk (a relative one taken from the resource's folder); none when unset. */
  caFile?: string;
  /** BRIDGE_API_BASE as read: the community is every bridge naming the same Redis and the same panel. */
  apiBase: string;
  logger: Logger;
  /** Monotonic clock (ms) of this server. */
  now: () => number;
  /** Waits on this server's monotonic clock (its timers): what shared state repeats runs on it. */
  sleep: (ms: number) => Promise<void>;
  /** This run of this server, and the one before it (community-run.ts, kept in KVP). */
  run: { id: string; previous: string | undefined };
  /** How long a server may go without renewing its liveness before a peer ends its shifts (BRIDGE_REDIS_LIVENESS_MS). */
  livenessMs: number;
}

/** What dist/redis.cjs exports. */
export interface CommunityModule {
  startCommunity(options: CommunityOptions): Community;
}
