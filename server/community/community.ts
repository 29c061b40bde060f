// The API the rest of the bridge sees of a community of servers (BRIDGE_REDIS_URL). Types only: everything that
// runs with Redis lives in dist/redis.cjs (server/community/community-entry.ts), loaded only when the convar is set,
// so dist/server.js carries none of it (test/build/bundle-size.test.ts).
import type { Observable, Subscription } from 'rxjs';
import type { OnDutyCounts } from '../../shared/events.js';
import type { CallFence, Duty, DutyStore, FenceGate, HeldShiftEnd, Outbox } from '../duty/index.js';
import type { KeyValueStore, Logger, PlayerRegistry } from '../kernel/index.js';
import type { SharedBudget } from '../panel/index.js';
import type { CommunityProfiles } from '../profiles/index.js';
import type { HeldCall, HeldForRedis } from './held-for-redis.js';

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
  /** This run of this server, and the one before it (startCommunityRun, kept in KVP). */
  run: { id: string; previous: string | undefined };
  /** How long a server may go without renewing its liveness before a peer ends its shifts (BRIDGE_REDIS_LIVENESS_MS). */
  livenessMs: number;
}

/** What the community's duty follows and acts on, on this server. */
export interface CommunityDutyWiring {
  store: Pick<DutyStore, 'model'>;
  duty: Pick<Duty, 'submit'>;
  outbox: Pick<Outbox, 'enqueue'>;
  heldEnded$: Observable<HeldShiftEnd>;
  players: Pick<PlayerRegistry, 'chatId'>;
}

/** The community's duty on this server: what a joining session takes over, and what follows Redis until stopped. */
export interface CommunityDuty {
  /** A session that joins takes over its account's shift held on another server, if there is one. */
  takeHeldElsewhere: (src: number) => Promise<void>;
  /**
   * From now on: another server's claims end what they take here, restates are sent, lapsed servers' duties are ended,
   * and a held shift that ends lets its claim go.
   */
  follow(): Subscription;
}

/** What dist/redis.cjs exports. */
export interface CommunityModule {
  startCommunity(options: CommunityOptions): Community;
}

// The community's duty owners (issues 25 and 30), as the rest of the bridge sees them: the Redis side is
// server/community/duty-owners.ts, in dist/redis.cjs. How it works: docs/several-servers.md, "How an account's
// duty is fenced".

/** A fenced call, right before one of its attempts. */
export interface FenceRequest {
  chatId: string;
  action: 'on' | 'off';
  fence: CallFence;
  /** The department an `off` ends (a record Redis lost is written again with it). */
  departmentId: number | undefined;
  /** A call a run before this one kept (its KVP may be a copied folder's). */
  fromLastRun: boolean;
  /** How long after the confirmation the attempt may still reach the panel (ms): Redis's `quiet` moves past it. */
  leaseMs: number;
}

export type FenceAnswer =
  /** The claim is the account's current one: send the attempt now (its lease runs from the confirmation). */
  | { kind: 'go' }
  /** Not this call's to send any more: another claim holds the account, or this one has ended. */
  | { kind: 'stale'; why: string };

/** A duty this server held that the community settled on another server's claim. */
export interface TakenElsewhere {
  chatId: string;
  /** The shift of this server that lost: only that duty ends. */
  shift: string;
  /** `replaced`: another server's claim was heard as it came; `superseded`: found in settling after a fault. */
  reason: 'replaced' | 'superseded';
  /** The winning claim had ended already: this duty's own session may be the one left at the panel. */
  panelOff: boolean;
}

/** A server whose liveness lapsed, with the duties it owned that this server now ends at the panel. */
export interface LapsedServer {
  server: string;
  /** How long before it was taken out it had last renewed its liveness (ms, Redis's clock). */
  silentForMs: number;
  /** Each claimed duty by its shift; `shift` undefined: an `on` it sent that died with it before it was claimed. */
  duties: Array<{ chatId: string; shift: string | undefined; departmentId: number | undefined }>;
}

/**
 * What the duty owners still have to do on their own after a fault, with no call of anyone's: `bridge status` shows
 * it, so an owner (or a test) knows when the community has settled.
 */
export interface Settling {
  /** Claims of this server not yet written, nor learnt lost: retried until Redis answers. */
  claims: number;
  /** This server's `on`s to send again once another server's calls are over, and the first one's wait (ms). */
  restates: number;
  nextRestateInMs: number | undefined;
  /** When every claim is checked again after Redis came back (ms), if that is still to come. */
  checkAgainInMs: number | undefined;
  /** Lapsed servers whose duties this server is reading, to end them at the panel. */
  takeovers: number;
}

/** A shift held on another server that this server's session took over: the duty it goes on with. */
export interface HeldElsewhere {
  departmentId: number;
  rankId: number;
  /** When the duty began (ms, the holder's `since`). */
  since: number;
  /** How long the window has left (ms): not back by then in game here, the shift ends. */
  leftMs: number;
}

/**
 * The duty owner of each chat account across the community, kept in Redis under `<prefix>duty-owner:<chatId>`. Nothing
 * here blocks: claims are retried in the background, and a confirmation rejects while Redis cannot give one.
 */
export interface DutyOwners {
  /** This server's duty started (the panel took its `on`, or in degraded mode `queue` will): it claims the account. */
  claim(chatId: string, shift: string, departmentId: number): void;
  /** This server's shift of the account ended in game (its fenced `off`, if any, is in the outbox). */
  release(chatId: string, shift: string): void;
  /**
   * This server's shift is held after its game crashed (Config.ResumeWindowMs): its record says so, and until when on
   * Redis's clock, so the account may take it over on another server. Best effort: without it the shift is only held
   * here.
   */
  hold(chatId: string, shift: string, held: { windowMs: number; since: number; rankId: number }): void;
  /**
   * The account joined this server as session `src`: if its shift is held on another server and its window is not
   * over, this server's claim takes it over (fenced, nothing sent to the panel) and its duty is returned.
   */
  takeHeld(chatId: string, src: number): Promise<HeldElsewhere | undefined>;
  /** An `on` of a new duty (not fenced: its claim follows) leaves for the panel now. */
  sending(chatId: string): void;
  /**
   * Right before an `on` of a new duty leaves: announced in Redis, so a peer ends it if this server dies before its
   * claim is written. Never rejects, and waits at most one Redis command (nothing while Redis is down).
   */
  intend(chatId: string, departmentId: number): Promise<void>;
  /** Right before an attempt of a fenced call. Rejects while Redis cannot confirm: the call waits. */
  confirm(request: FenceRequest): Promise<FenceAnswer>;
  /** A fenced call was delivered: an `off` marks its claim ended. */
  delivered(request: FenceRequest): void;
  /** Redis answers (again): calls waiting for a confirmation try at once. */
  readonly answers$: Observable<void>;
  /** Duties of this server that the community settled on another server's claim: they end in game, without an `off`. */
  readonly takenElsewhere$: Observable<TakenElsewhere>;
  /** This server's claim must send its `on` again (another server's calls may have reached the panel after it). */
  readonly restate$: Observable<{ chatId: string; shift: string }>;
  /** A server whose liveness lapsed, taken by this server: its duties are to be ended at the panel, fenced. */
  readonly lapsed$: Observable<LapsedServer>;
  /** What is left to settle now. */
  settling(): Settling;
  /**
   * The fence for this server's outbox; what it holds is listed in `heldForRedis`, and an attempt confirmed must leave
   * within a request timeout (`requestTimeoutMs`, which also bounds how long it may take).
   */
  fenceGate(options: { heldForRedis: Pick<HeldForRedis, 'hold'>; requestTimeoutMs: number }): FenceGate;
  stop(): void;
}
