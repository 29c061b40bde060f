// The chaos test's world: simulated servers of one community (test/e2e/support/community.ts), one mock panel, a real
// redis-server, and a TCP proxy between each server and Redis, with every fault of sim/community/ at hand. It runs
// the operations the randomized test picks and keeps, beside the servers and never from what they say of themselves,
// the record the checks read (chaos-checks.ts):
// - each duty call as it leaves a server (the server's own `fetch`, SimOptions.fetch), and the panel's answer;
// - each write of a duty-owner record in Redis, from Redis's MONITOR (redis-history.ts);
// - each duty change a player made, as the harness asked for it and the server answered.
import { copyKvpFolder } from '../../sim/community/kvp-folder.js';
import { type RedisReplica, startReplica } from '../../sim/community/redis-replica.js';
import { type RedisServer, type RedisSnapshot, startRedisServer } from '../../sim/community/redis-server.js';
import type { CutMode, TcpProxy } from '../../sim/community/tcp-proxy.js';
import type { Sim, SimPlayer } from '../../sim/index.js';
import { type SimCommunity, startSimCommunity } from '../e2e/support/community.js';
import type { ChaosRecord, DutyCallRecord, GameChange, GameDuty } from './chaos-record.js';
import { type RedisHistory, startRedisHistory } from './redis-history.js';

/** A chat account of the panel's demo data, and the departments its profile grants. */
export interface Account {
  readonly chatId: string;
  readonly name: string;
  readonly departments: readonly number[];
}

/** Alex (LSPD and BCSO), Jamie (SAFR) and Casey (LSPD): three accounts, so sessions of one account meet often. */
export const ACCOUNTS: readonly Account[] = [
  { chatId: '284619375016482817', name: 'Alex Mercer', departments: [1, 2] },
  { chatId: '1039284756102938475', name: 'Jamie Rivera', departments: [3] },
  { chatId: '562018374659201837', name: 'Casey Novak', departments: [1] },
];

/** A player of the chaos world. */
export interface Session {
  readonly id: number;
  readonly server: number;
  readonly account: Account;
  readonly player: SimPlayer;
}

export interface ChaosWorldOptions {
  servers: number;
  /** BRIDGE_REDIS_LIVENESS_MS of every server: how soon a peer ends a crashed server's shifts. */
  livenessMs: number;
  /** Print what the world does as it does it. */
  echo?: boolean;
}

export const wallUs = (): number => Date.now() * 1000;
const OP_DEADLINE_MS = 20_000;
const REQUEST_TIMEOUT_MS = 1_500;

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

interface DutyAnswer {
  ok: boolean;
  onDuty?: boolean;
  departmentId?: number | null;
  error?: string;
}

export class ChaosWorld {
  readonly changes: GameChange[] = [];
  /** What the world did, one line each, with the time since it started. */
  readonly log: string[] = [];
  readonly sessions: Session[] = [];
  private sessionCount = 0;
  private readonly startedAt = Date.now();
  private readonly snapshots: RedisSnapshot[] = [];
  private readonly down = new Set<number>();
  private readonly cuts = new Map<number, CutMode>();
  private replica: RedisReplica | undefined;
  private replicaLagging = false;
  private promoted = false;
  private redisUp = true;
  private pausedUntil = 0;
  /** The last moment a fault of Redis or of a server's link to it ended (ms). */
  lastHealAt = 0;
  /** The last moment Redis came back without some of what it held: restarted, from a snapshot or empty, or failed over. */
  private redisLostAt = Number.NEGATIVE_INFINITY;
  /** When each server last started (the world's start, or its restart). */
  private readonly startedAtOf = new Map<number, number>();

  private constructor(
    readonly options: ChaosWorldOptions,
    private redis: RedisServer,
    readonly community: SimCommunity,
    readonly history: RedisHistory,
    readonly calls: DutyCallRecord[],
  ) {}

  static async start(options: ChaosWorldOptions): Promise<ChaosWorld> {
    const redis = await startRedisServer();
    const calls: DutyCallRecord[] = [];
    let community: SimCommunity | undefined;
    let history: RedisHistory | undefined;
    try {
      // Started before any server, so it sees every write; a client port names the server whose proxy opened it.
      history = await startRedisHistory(redis.port, (port) => {
        const index = community?.sims.findIndex((sim) => community?.proxyOf(sim).localPorts.has(port)) ?? -1;
        return index < 0 ? undefined : index;
      });
      community = await startSimCommunity({
        servers: options.servers,
        proxiedRedis: redis,
        convarsOf: () => ({ BRIDGE_REDIS_LIVENESS_MS: String(options.livenessMs) }),
        // A panel request's timeout bounds how long a confirmed call may still reach the panel (its lease): short, so
        // the restates that wait for a lease come soon.
        config: `Config.RequestTimeoutMs = ${REQUEST_TIMEOUT_MS}`,
        fetchOf: (index) => tap(index, calls),
      });
      const world = new ChaosWorld(options, redis, community, history, calls);
      const joinedRedis = community;
      await Promise.all(
        joinedRedis.sims.map((sim) =>
          sim.until(() => joinedRedis.consoleOf(sim).includes('one of a community on Redis'), 30_000, 'Redis'),
        ),
      );
      world.note(`${options.servers} servers on Redis, liveness ${options.livenessMs} ms`);
      return world;
    } catch (error) {
      history?.close();
      await community?.close();
      await redis.stop();
      throw error;
    }
  }

  private proxies(): TcpProxy[] {
    return this.sims.map((sim) => this.community.proxyOf(sim));
  }

  get sims(): Sim[] {
    return this.community.sims;
  }

  isUp(server: number): boolean {
    return server < this.sims.length && !this.down.has(server);
  }

  note(line: string): void {
    const text = `+${((Date.now() - this.startedAt) / 1000).toFixed(3)} s ${line}`;
    this.log.push(text);
    if (this.options.echo) process.stdout.write(`${text}\n`);
  }

  private sim(server: number): Sim {
    const sim = this.sims[server];
    if (!sim) throw new Error(`no server ${server}`);
    return sim;
  }

  private sessionOf(server: number, chatId: string): Session | undefined {
    return this.sessions.find((session) => session.server === server && session.account.chatId === chatId);
  }

  /** The player's duty as their server has it. */
  private dutyOf(session: Session): { onDuty: boolean; departmentId: number | null } {
    const duty = this.sim(session.server).exports.bridge.GetPlayerDuty(session.player.id) as {
      onDuty: boolean;
      departmentId: number | null;
    };
    return duty;
  }

  // --- players ---------------------------------------------------------------------------------------------------

  async join(server: number, account: Account): Promise<void> {
    const sim = this.sim(server);
    const player = await this.community.join(sim, account.chatId, account.name);
    const session: Session = { id: ++this.sessionCount, server, account, player };
    this.sessions.push(session);
    await within(
      sim.until(() => this.community.hasProfile(sim, player), OP_DEADLINE_MS, 'the profile'),
      OP_DEADLINE_MS,
      `the profile of ${account.name} on server ${server}`,
    );
    this.note(`join: ${account.name} on server ${server} (player ${player.id})`);
  }

  async drop(server: number, account: Account, how: 'quit' | 'game crash'): Promise<void> {
    const session = this.sessionOf(server, account.chatId);
    if (!session) return;
    const before = this.dutyOf(session);
    const at = wallUs();
    session.player.drop(how === 'quit' ? 'Exiting' : 'Game crashed: ERR_GFX_D3D_INIT');
    this.sessions.splice(this.sessions.indexOf(session), 1);
    if (before.onDuty && before.departmentId !== null) {
      this.change(session, 'off', before.departmentId, 'drop', at);
    }
    await this.sim(server).settle();
    this.note(`drop (${how}): ${account.name} on server ${server}${before.onDuty ? ', on duty' : ''}`);
  }

  async goOn(server: number, account: Account, departmentId: number): Promise<void> {
    const session = this.sessionOf(server, account.chatId);
    if (!session) return;
    const answer = await this.request(session, true, departmentId);
    this.note(`on: ${account.name} on server ${server} in department ${departmentId}: ${describe(answer)}`);
  }

  async goOff(server: number, account: Account): Promise<void> {
    const session = this.sessionOf(server, account.chatId);
    if (!session) return;
    const answer = await this.request(session, false);
    this.note(`off: ${account.name} on server ${server}: ${describe(answer)}`);
  }

  /**
   * A duty request through the server export, as a job script makes one. The change it made is read from the player's
   * duty before and after, whatever the answer: a department switch that is refused may still end the duty.
   */
  private async request(session: Session, on: boolean, departmentId?: number): Promise<DutyAnswer> {
    const before = this.dutyOf(session);
    // An off may leave for the panel before the answer comes back: a change is dated from the request.
    const at = wallUs();
    const answer = (await within(
      Promise.resolve(this.sim(session.server).exports.bridge.SetPlayerDuty(session.player.id, on, departmentId)),
      OP_DEADLINE_MS,
      `${session.account.name} going ${on ? 'on' : 'off'} duty on server ${session.server}`,
    )) as DutyAnswer;
    const after = this.dutyOf(session);
    if (after.onDuty && after.departmentId !== null) {
      if (!before.onDuty || before.departmentId !== after.departmentId) {
        this.change(session, 'on', after.departmentId, 'request', wallUs());
      }
    } else if (before.onDuty && before.departmentId !== null) {
      this.change(session, 'off', before.departmentId, 'request', at);
    }
    return answer;
  }

  private change(session: Session, kind: 'on' | 'off', departmentId: number, cause: GameChange['cause'], at: number) {
    this.changes.push({
      chatId: session.account.chatId,
      server: session.server,
      session: session.id,
      kind,
      departmentId,
      cause,
      atUs: at,
    });
  }

  // --- servers ---------------------------------------------------------------------------------------------------

  /** The server process dies (kill -9): no onResourceStop, no playerDropped; its players are gone. */
  async crash(server: number): Promise<void> {
    if (!this.isUp(server)) return;
    const at = wallUs();
    for (const session of this.sessions.filter((each) => each.server === server)) {
      const duty = this.dutyOf(session);
      if (duty.onDuty && duty.departmentId !== null) this.change(session, 'off', duty.departmentId, 'crash', at);
    }
    await this.sim(server).kill();
    this.down.add(server);
    for (const session of this.sessions.filter((each) => each.server === server)) {
      this.sessions.splice(this.sessions.indexOf(session), 1);
    }
    this.note(`crash: server ${server}`);
  }

  /** A crashed server starts again on its KVP. */
  async restart(server: number): Promise<void> {
    if (this.isUp(server)) return;
    const sim = this.sim(server);
    await within(sim.restart(), OP_DEADLINE_MS, `server ${server}'s restart`);
    this.down.delete(server);
    this.startedAtOf.set(server, Date.now());
    this.note(`restart: server ${server}`);
  }

  /** An owner copies a running server's folder, KVP included, and starts the copy as a new server. */
  async copyFolder(from: number): Promise<void> {
    const kvpDir = copyKvpFolder(this.community.kvpDirOf(this.sim(from)));
    const sim = await within(this.community.addServer({ kvpDir }), OP_DEADLINE_MS, 'the copied server');
    const server = this.sims.indexOf(sim);
    this.startedAtOf.set(server, Date.now());
    this.note(`copy: server ${server} from server ${from}'s folder`);
  }

  // --- Redis -----------------------------------------------------------------------------------------------------

  /** `CLIENT PAUSE <ms> WRITE`: Redis holds every write that long (an RDB fork, a hitch); it does not wait for it. */
  async pauseRedis(ms: number): Promise<void> {
    if (!this.redisUp) return;
    await this.redis.pause(ms, 'WRITE');
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    this.note(`redis: CLIENT PAUSE ${ms} WRITE`);
  }

  async snapshot(): Promise<void> {
    if (!this.redisUp || this.promoted) return;
    this.snapshots.push(await this.redis.snapshot());
    this.note(`redis: snapshot ${this.snapshots.length}`);
  }

  async killRedis(): Promise<void> {
    if (!this.redisUp || this.promoted) return;
    await this.redis.kill();
    this.redisUp = false;
    this.note('redis: kill -9');
  }

  /** Starts the killed Redis again: from a snapshot taken earlier (`from` its number, from 1), or empty. */
  async restartRedis(from: number | undefined): Promise<void> {
    if (this.redisUp || this.promoted) return;
    const snapshot = from === undefined ? undefined : this.snapshots[from - 1];
    await this.withServersHeldOff(async () => {
      if (snapshot) await this.redis.restartFrom(snapshot);
      else await this.redis.restart();
      await this.history.follow(this.redis.port, { empty: !snapshot });
    });
    this.redisUp = true;
    this.lastHealAt = Date.now();
    this.redisLostAt = this.lastHealAt;
    this.note(`redis: restarted ${snapshot ? `from snapshot ${from}` : 'empty'}`);
  }

  /** A replica, in sync, then cut from its primary: what the primary takes from now on it never gets. */
  async replicaLags(): Promise<void> {
    if (!this.redisUp || this.promoted || this.replicaLagging) return;
    await this.redis.command('CONFIG', 'SET', 'repl-diskless-sync-delay', '0');
    this.replica ??= await startReplica(this.redis);
    this.replica.lag();
    this.replicaLagging = true;
    this.note('redis: a replica lags from now on');
  }

  /** The primary fails; the lagging replica is promoted and every server's link goes to it. */
  async promoteReplica(): Promise<void> {
    const replica = this.replica;
    if (!replica || !this.replicaLagging || !this.redisUp || this.promoted) return;
    await this.withServersHeldOff(async () => {
      await this.redis.kill();
      await replica.server.promote();
      await this.history.follow(replica.server.port);
      for (const proxy of this.proxies()) proxy.retarget(replica.server.port);
    });
    const failed = this.redis;
    this.redis = replica.server;
    this.promoted = true;
    this.lastHealAt = Date.now();
    this.redisLostAt = this.lastHealAt;
    await failed.stop();
    this.note('redis: the lagging replica is promoted');
  }

  /**
   * Runs a restart or a failover while no server can reach Redis (each link reset, then put back as it was), so the
   * history follows the new Redis before any server writes to it.
   */
  private async withServersHeldOff(work: () => Promise<void>): Promise<void> {
    const proxies = this.proxies();
    for (const proxy of proxies) proxy.cutLink('reset');
    try {
      await work();
    } finally {
      for (const [index, proxy] of proxies.entries()) {
        const cut = this.cuts.get(index);
        if (cut) proxy.cutLink(cut);
        else proxy.heal();
      }
    }
  }

  /** Cuts one server's link to Redis: `reset` (refused at once) or `blackhole` (nothing answers). */
  cut(server: number, mode: CutMode): void {
    this.proxies()[server]?.cutLink(mode);
    this.cuts.set(server, mode);
    this.note(`link: server ${server} cut (${mode})`);
  }

  heal(server: number): void {
    if (!this.cuts.has(server)) return;
    this.proxies()[server]?.heal();
    this.cuts.delete(server);
    this.lastHealAt = Date.now();
    this.note(`link: server ${server} healed`);
  }

  async wait(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.note(`wait ${ms} ms`);
  }

  // --- the end of a run --------------------------------------------------------------------------------------------

  /** Every fault ends: links healed, Redis up and writable, and at least one server running. */
  async healAll(): Promise<void> {
    for (const server of [...this.cuts.keys()]) this.heal(server);
    if (!this.redisUp) await this.restartRedis(this.snapshots.length > 0 ? this.snapshots.length : undefined);
    const paused = this.pausedUntil - Date.now();
    if (paused > 0) await new Promise((resolve) => setTimeout(resolve, paused));
    this.lastHealAt = Math.max(this.lastHealAt, this.pausedUntil);
    // A crashed server's shifts are ended by a peer from what Redis knows of them. When Redis may not know one, that
    // shift waits for the server's next start (docs/several-servers.md), so the server starts. With no server
    // running, every one starts.
    const noneUp = this.sims.every((_, server) => !this.isUp(server));
    for (const server of this.sims.keys()) {
      if (!this.isUp(server) && (noneUp || this.unknownToRedis(server))) await this.restart(server);
    }
    this.note('healed: every link, Redis up');
  }

  /**
   * Whether Redis may not know a shift of this server: it lost records since the server started (a restart, a
   * failover), or an `on` the panel took from it was neither announced before it left nor claimed after (Redis did
   * not answer in time), as the history of Redis shows.
   */
  private unknownToRedis(server: number): boolean {
    const since = this.startedAtOf.get(server) ?? this.startedAt;
    if (this.redisLostAt >= since) return true;
    const { announcements, writes } = this.history;
    return this.calls.some(
      (call) =>
        call.server === server &&
        call.action === 'on' &&
        call.status === 200 &&
        call.sentAtUs >= since * 1000 &&
        !announcements.some(
          (each) => each.server === server && each.chatId === call.chatId && each.atUs <= call.sentAtUs + 1_000,
        ) &&
        !writes.some((each) => each.server === server && each.chatId === call.chatId && each.atUs >= call.sentAtUs),
    );
  }

  /** What `bridge status` says on a running server of its outbox and of the community's settling. */
  status(server: number): { pendingCalls: number; community: string } {
    const sim = this.sim(server);
    const before = sim.console.length;
    sim.command('bridge status');
    const lines = sim.console.slice(before).map((each) => each.text);
    const outbox = /^outbox\s+(\d+) duty call/.exec(lines.find((text) => text.startsWith('outbox')) ?? '');
    const owners = lines.map((text) => /^\s+duty owners (.*)$/.exec(text)?.[1]).find((said) => said !== undefined);
    if (!outbox || !owners) throw new Error(`bridge status on server ${server}:\n${lines.join('\n')}`);
    return { pendingCalls: Number(outbox[1]), community: owners };
  }

  /** The server's identity in the community, as it last said it (undefined before it settled one). */
  identityOf(server: number): string | undefined {
    const said = this.sim(server)
      .console.map((line) => /this server is ([0-9a-f]{16}) in the community/.exec(line.text)?.[1])
      .filter((identity) => identity !== undefined);
    return said.at(-1);
  }

  /** When each server last renewed its liveness, as Redis has it (ms on Redis's clock), read from Redis itself. */
  async renewals(): Promise<Map<string, number>> {
    const keys = (await this.redis.command('KEYS', 'bridge:*:servers')) as string[];
    const renewed = new Map<string, number>();
    for (const key of keys) {
      // Pairs, or one flat list, as the protocol the client speaks gives them.
      const answer = (await this.redis.command('ZRANGE', key, '0', '-1', 'WITHSCORES')) as unknown[];
      const flat = answer.flat().map(String);
      for (let index = 0; index + 1 < flat.length; index += 2) {
        renewed.set(flat[index] as string, Number(flat[index + 1]));
      }
    }
    return renewed;
  }

  /** The lapsed servers whose takeover is not finished yet, read from Redis itself. */
  async pendingTakeovers(): Promise<string[]> {
    const keys = (await this.redis.command('KEYS', 'bridge:*:takeovers')) as string[];
    const lapsed: string[] = [];
    for (const key of keys) lapsed.push(...((await this.redis.command('HKEYS', key)) as string[]));
    return lapsed;
  }

  /** Each running server's sessions on duty, as the game has them. */
  gameDuties(): GameDuty[] {
    const duties: GameDuty[] = [];
    for (const [server, sim] of this.sims.entries()) {
      if (!this.isUp(server)) continue;
      const onDuty = sim.exports.bridge.GetOnDutyPlayers() as Array<{ source: number; departmentId: number }>;
      for (const { source, departmentId } of onDuty) {
        const chat = sim
          .player(source)
          ?.identifiers.find((identifier) => identifier.startsWith('chat:'))
          ?.slice('chat:'.length);
        if (chat) duties.push({ server, player: source, chatId: chat, departmentId });
      }
    }
    return duties;
  }

  /** What the checks read, at quiescence. */
  record(): ChaosRecord {
    return {
      panelSessions: this.community.panel.controls.sessions(),
      gameDuties: this.gameDuties(),
      calls: this.calls,
      writes: this.history.writes,
      changes: this.changes,
    };
  }

  consoles(): string {
    return this.sims
      .map(
        (sim, server) => `--- server ${server}${this.isUp(server) ? '' : ' (down)'}:\n${this.community.consoleOf(sim)}`,
      )
      .join('\n');
  }

  async close(): Promise<void> {
    this.history.close();
    await this.community.close();
    await this.replica?.link.close();
    if (this.replica && this.replica.server !== this.redis) await this.replica.stop();
    await this.redis.stop();
  }
}

function describe(answer: DutyAnswer): string {
  if (!answer.ok) return `refused (${answer.error ?? 'no code'})`;
  return answer.onDuty ? `on duty in ${answer.departmentId}` : 'off duty';
}

/** A server's `fetch` that writes down each duty call as it leaves and the panel's answer. */
function tap(server: number, calls: DutyCallRecord[]): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const action = /\/duty\/(on|off)$/.exec(new URL(url).pathname)?.[1] as 'on' | 'off' | undefined;
    if (!action) return fetch(input, init);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const record: DutyCallRecord = {
      server,
      action,
      chatId: String(body.chatId),
      departmentId: typeof body.departmentId === 'number' ? body.departmentId : undefined,
      sentAtUs: wallUs(),
      status: undefined,
    };
    calls.push(record);
    try {
      const response = await fetch(input, init);
      record.status = response.status;
      return response;
    } catch (error) {
      record.status = 'failed';
      throw error;
    }
  };
}
