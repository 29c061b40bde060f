// Everything the server and the clients share: the clock and frame driver, the logs, the resource folders, the
// players, convars, ACEs, KVP, and the network between the sides (net events and state bag replication).
import { HostRuntime } from '../js/host-runtime.js';
import { sharedLuaPool } from '../lua/lua-api.js';
import { AceStore } from '../server/aces.js';
import { runClientCommand, runConsoleCommand } from '../server/console.js';
import { ConvarStore } from '../server/convars.js';
import { HttpHandlers } from '../server/http-handlers.js';
import { KvpFinds, KvpStore } from '../server/kvp.js';
import { atoi, type PlayerRecord, PlayerRegistry } from '../server/players.js';
import { NetRateLimiter, StateBagRateLimiter } from '../server/rate-limit.js';
import { type ClockMode, Driver } from './driver.js';
import { Host, type HostWorld } from './host.js';
import { HostWork } from './host-work.js';
import { type LogOptions, SimLog } from './log.js';
import { type ResourceDef, ResourceInstance } from './resource.js';

/** A new server's security context: the console may run every command (GameServer.cpp). */
function newAceStore(): AceStore {
  const aces = new AceStore();
  aces.addAce('system.console', 'command', 'allow');
  return aces;
}

export interface WorldOptions extends LogOptions {
  clock: ClockMode;
  serverFrameMs: number;
  clientFrameMs: number;
  kvpDir: string | null;
  chat: boolean;
  rateLimits: boolean;
  /** The server scripts' `fetch` (undefined: the host's). */
  fetch: typeof fetch | undefined;
}

export class World implements HostWorld {
  readonly log: SimLog;
  readonly driver: Driver;
  /** Opt-in: the CPU the simulator spends for one resource's server scripts (see host-work.ts). */
  readonly hostWork = new HostWork();
  /** When this server started (GetGameTimer counts from here). */
  startedAt: number;
  readonly defs = new Map<string, ResourceDef>();
  readonly lua = sharedLuaPool;
  server: Host;
  readonly clients = new Map<number, Host>();
  players = new PlayerRegistry();
  convars = new ConvarStore();
  aces = newAceStore();
  /**
   * Who is running what runs now, innermost first: `system.console` for server.cfg lines and the console,
   * `resource.<name>` inside its ExecuteCommand, a player's principals while their command runs. Empty otherwise.
   */
  private principalStack: string[] = [];
  kvp: KvpStore;
  kvpFinds = new KvpFinds();
  /** SetHttpHandler's handlers, by resource. */
  readonly http = new HttpHandlers();
  /** SaveResourceFile writes here (`<resource>/<path>`), never to the resource folders. */
  readonly savedFiles = new Map<string, string>();
  /** Server start order, which is also the order clients start resources in. */
  startOrder: string[] = [];
  private limiter: NetRateLimiter;
  private stateBagLimiter: StateBagRateLimiter;
  /** Viewer → the players whose bags it has in scope. There are no positions: tests say who sees whom. */
  private readonly scopes = new Map<number, Set<number>>();
  /** Players being dropped for flooding, so the drop is announced once. */
  private readonly dropping = new Set<number>();
  /** Set by the connection code: drops a player (reason, resource, clientDropReason). */
  dropPlayer: (player: PlayerRecord, reason: string, resource: string, code: number) => void = () => {};

  constructor(readonly options: WorldOptions) {
    this.driver = new Driver(
      options.clock,
      () => this.server,
      options.serverFrameMs,
      options.clientFrameMs,
      this.hostWork,
    );
    this.startedAt = this.driver.now();
    this.log = new SimLog(options, () => this.driver.now());
    this.kvp = new KvpStore(options.kvpDir);
    this.server = this.createHost('server', null);
    this.limiter = new NetRateLimiter(() => this.clock.now());
    this.stateBagLimiter = new StateBagRateLimiter(() => this.clock.now());
  }

  get fetch(): typeof fetch | undefined {
    return this.options.fetch;
  }

  get clock(): Driver {
    return this.driver;
  }

  createHost(side: 'server' | 'client', playerId: number | null): Host {
    const host = new Host(
      this,
      side,
      playerId,
      side === 'server' ? this.options.serverFrameMs : this.options.clientFrameMs,
      (owner, resource) => new HostRuntime(owner, resource),
    );
    if (this.options.chat) this.addChatResource(host);
    if (side === 'server') {
      // A client command nobody registered on the client arrives as this net event and runs for that player.
      host.test.on(
        '__cfx_internal:commandFallback',
        (raw: unknown) => {
          const source = Number(host.test.currentSource);
          const player = this.players.get(source);
          const principals = player ? this.principalsOf(player) : [];
          if (!this.asPrincipals(principals, () => host.commands.execute(String(raw), source))) {
            this.log.print('server', null, null, 'warn', `No such command ${String(raw).split(' ')[0]}.`);
          }
        },
        true,
      );
    }
    return host;
  }

  /**
   * A new server process on the same machine: nothing survives but the KVP directory (and, without one, the
   * in-memory KVP store) and files saved with SaveResourceFile.
   */
  resetServer(): void {
    this.players = new PlayerRegistry();
    this.convars = new ConvarStore();
    this.aces = newAceStore();
    this.principalStack = [];
    if (this.options.kvpDir) this.kvp = new KvpStore(this.options.kvpDir);
    this.kvpFinds = new KvpFinds();
    this.http.clear();
    this.startOrder = [];
    this.limiter = new NetRateLimiter(() => this.clock.now());
    this.stateBagLimiter = new StateBagRateLimiter(() => this.clock.now());
    this.scopes.clear();
    this.dropping.clear();
    this.startedAt = this.clock.now();
    this.server = this.createHost('server', null);
  }

  /**
   * The server process dies at once: no player is dropped, no resource stops, clients just lose the connection;
   * every runtime, timer and queued event is gone, and KVP keeps only what had reached its log.
   */
  killServer(): void {
    for (const client of this.clients.values()) client.destroy();
    this.clients.clear();
    for (const player of [...this.players.joined()]) this.players.remove(player);
    this.server.destroy();
    this.http.clear();
    this.kvp.crash();
  }

  /** A server console line (server.cfg, the console, the test), run with source 0 as `system.console`. */
  console(line: string): void {
    this.asPrincipals(['system.console'], () => runConsoleCommand(this, line));
  }

  /** A resource's ExecuteCommand: a console line run as `resource.<name>`, above whoever runs now. */
  executeCommand(resource: string, line: string): void {
    this.asPrincipals([`resource.${resource}`], () => runConsoleCommand(this, line));
  }

  /** Runs `work` with these principals on top of the principal stack (FXServer's se::ScopedPrincipal). */
  asPrincipals<T>(principals: readonly string[], work: () => T): T {
    const outer = this.principalStack;
    this.principalStack = [...principals, ...outer];
    try {
      return work();
    } finally {
      this.principalStack = outer;
    }
  }

  /**
   * Whether whoever runs now may use `object`: any principal on the stack allowed (FXServer's seCheckPrivilege),
   * `builtin.everyone` when nobody is on it.
   */
  isAllowedNow(object: string): boolean {
    const stack = this.principalStack.length > 0 ? this.principalStack : ['builtin.everyone'];
    return this.aces.isAnyAllowed(stack, object);
  }

  clientCommand(client: Host, line: string): void {
    runClientCommand(this, client.playerId ?? 0, line);
  }

  /** A stand-in for cfx-server-data's `chat`: started on every side; on clients it records what chat would show. */
  private addChatResource(host: Host): void {
    const chat = new ResourceInstance({ name: 'chat', dir: '' });
    chat.state = 'started';
    host.resources.set('chat', chat);
    if (!host.client) return;
    const data = host.client;
    const runtime = new HostRuntime(host, chat);
    chat.runtimes = [runtime];
    host.addRuntime(runtime);
    runtime.on('chat:addMessage', (message: unknown) => data.chatMessages.push(message), true);
    runtime.on(
      'chat:addSuggestion',
      (name: unknown, help: unknown, params: unknown) =>
        data.suggestions.set(String(name), {
          name: String(name),
          help: String(help ?? ''),
          params: Array.isArray(params) ? params : [],
        }),
      true,
    );
    runtime.on(
      'chat:addSuggestions',
      (list: unknown) => {
        if (!Array.isArray(list)) return;
        for (const s of list as { name?: unknown; help?: unknown; params?: unknown }[]) {
          data.suggestions.set(String(s.name), {
            name: String(s.name),
            help: String(s.help ?? ''),
            params: Array.isArray(s.params) ? s.params : [],
          });
        }
      },
      true,
    );
    runtime.on('chat:removeSuggestion', (name: unknown) => data.suggestions.delete(String(name)), true);
    runtime.on('chat:clear', () => data.chatMessages.splice(0), true);
  }

  // --- players -------------------------------------------------------------------------------------------------

  /** A player from a native's `char* playerSrc` (atoi; temp ids while connecting). */
  player(arg: unknown): PlayerRecord | undefined {
    if (arg === null || arg === undefined) return undefined;
    return this.players.get(atoi(arg));
  }

  playerIdsAsStrings(): string[] {
    return this.players.joined().map((p) => String(p.id));
  }

  identifiersOf(arg: unknown): string[] {
    return [...(this.player(arg)?.identifiers ?? [])];
  }

  tokensOf(arg: unknown): string[] {
    return [...(this.player(arg)?.tokens ?? [])];
  }

  principalsOf(player: PlayerRecord): string[] {
    return [`player.${player.id}`, ...player.identifiers.map((i) => `identifier.${i}`)];
  }

  isPlayerAceAllowed(arg: unknown, object: string): boolean {
    const player = this.player(arg);
    return player ? this.aces.isAnyAllowed(this.principalsOf(player), object) : false;
  }

  // --- network -------------------------------------------------------------------------------------------------

  /** A client's TriggerServerEvent: queued for the server's next frame, subject to FXServer's rate limits. */
  sendToServer(playerId: number, name: string, payload: Uint8Array, sender: string | null): void {
    const player = this.players.get(playerId);
    if (player?.state !== 'joined') return;
    if (this.options.rateLimits) {
      const verdict = this.limiter.take(playerId, payload.length);
      if (verdict === 'drop-player') {
        this.server.queueTask(() =>
          this.dropPlayer(player, 'Reliable network event overflow.', '__cfx_internal:server', 9),
        );
        return;
      }
      if (verdict === 'drop-event') return;
    }
    this.server.queueEvent(name, payload, `net:${playerId}`, { kind: 'net', sender });
  }

  /** The server's TriggerClientEvent: `-1` for everyone, otherwise atoi; unknown players are silently skipped. */
  sendToClients(target: string, name: string, payload: Uint8Array, sender: string | null): void {
    this.hostWork.run('host', () => this.deliverToClients(target, name, payload, sender));
  }

  private deliverToClients(target: string, name: string, payload: Uint8Array, sender: string | null): void {
    const targetId = target === '-1' ? -1 : atoi(target);
    const deliver = (id: number, client: Host) =>
      client.queueEvent(name, payload, 'net:65535', { kind: 'net', sender, target: targetId === -1 ? -1 : id });
    if (targetId === -1) {
      for (const [id, client] of this.clients) deliver(id, client);
      return;
    }
    const client = this.clients.get(targetId);
    if (client) deliver(targetId, client);
  }

  // --- state bags ----------------------------------------------------------------------------------------------

  stateBagGet(host: Host, bag: string, key: string): Uint8Array | undefined {
    return this.hostWork.run('host', () => host.stateBags.get(bag, key));
  }

  /** A script's set on `host`: handlers run there; replicated sets travel server → clients or client → server. */
  stateBagSet(host: Host, bag: string, key: string, value: Uint8Array, replicated: boolean): void {
    this.hostWork.run('host', () => this.applyStateBagSet(host, bag, key, value, replicated));
  }

  private applyStateBagSet(host: Host, bag: string, key: string, value: Uint8Array, replicated: boolean): void {
    if (host.side === 'server') {
      if (!host.stateBags.has(bag)) {
        if (!bag.startsWith('entity:')) return;
        host.stateBags.create(bag);
      }
      const changed = host.stateBags.apply(bag, key, value, replicated, 0);
      if (replicated && changed) this.replicate(bag, key, value, null);
      return;
    }
    if (!host.stateBags.has(bag)) {
      if (!bag.startsWith('entity:') && !bag.startsWith('localEntity:')) return;
      host.stateBags.create(bag);
    }
    host.stateBags.apply(bag, key, value, replicated, 0);
    if (!replicated) return;
    if (this.convars.get('sv_stateBagStrictMode')?.value === 'true') {
      this.log.print(
        'client',
        host.playerId,
        null,
        'warn',
        "StateBags can't be modified from the client when sv_stateBagStrictMode is enabled.",
      );
      return;
    }
    const playerId = host.playerId ?? 0;
    // Only the owning peer may replicate: its own player bag (and entities, which the simulator treats as owned).
    if (bag !== `player:${playerId}` && !bag.startsWith('entity:')) return;
    if (!this.admitStateBagPacket(playerId, bag.length + key.length + value.length)) return;
    this.server.queueTask(() => {
      const player = this.players.get(playerId);
      if (player?.state !== 'joined' || !this.server.stateBags.has(bag)) return;
      if (this.server.stateBags.apply(bag, key, value, true, player.slot)) this.replicate(bag, key, value, playerId);
    });
  }

  /** FXServer's state bag packet limits, applied as the packet arrives (the flood drops the player). */
  private admitStateBagPacket(playerId: number, bytes: number): boolean {
    const player = this.players.get(playerId);
    if (player?.state !== 'joined') return false;
    if (!this.options.rateLimits) return true;
    const verdict = this.stateBagLimiter.take(playerId, bytes);
    if (verdict === 'ok') return true;
    const who = `Client ${player.name} ${player.id}`;
    if (verdict === 'drop-update') {
      if (this.stateBagLimiter.mayWarn(playerId)) {
        this.log.print(
          'server',
          null,
          null,
          'warn',
          `${who} sent too many state bag updates and had their updates dropped.`,
        );
      }
      return false;
    }
    if (!this.dropping.has(playerId)) {
      this.dropping.add(playerId);
      const why =
        verdict === 'drop-player-flood' ? 'too many state bag value updates' : 'too large of a state bag update';
      this.log.print('server', null, null, 'warn', `${who} got dropped for sending ${why}.`);
      this.server.queueTask(() =>
        this.dropPlayer(player, 'Reliable state bag packet overflow.', '__cfx_internal:server', 8),
      );
    }
    return false;
  }

  /**
   * Server → clients: `global` and entities to everyone, `player:N` to player N and to the clients that have N in
   * scope (see setInScope); never back to the client the set came from.
   */
  private replicate(bag: string, key: string, value: Uint8Array, except: number | null): void {
    const owner = bag.startsWith('player:') ? Number(bag.slice(7)) : null;
    const send = (client: Host) =>
      client.queueTask(() => {
        if (!client.stateBags.has(bag)) client.stateBags.create(bag);
        client.stateBags.apply(bag, key, value, true, 0);
      });
    // A player's bag with nobody's scope set reaches its owner alone: no walk over thousands of clients per set.
    if (owner !== null && this.scopes.size === 0) {
      const client = owner === except ? undefined : this.clients.get(owner);
      if (client) send(client);
      return;
    }
    this.clients.forEach((client, id) => {
      if (id === except) return;
      if (owner !== null && owner !== id && !this.scopes.get(id)?.has(owner)) return;
      send(client);
    });
  }

  /**
   * OneSync culling as a test decides it: coming into scope, the viewer receives the player's whole bag (FXServer's
   * AddRoutingTarget); leaving it, updates stop and the viewer keeps its last copy.
   */
  setInScope(viewerId: number, playerId: number, inScope: boolean): void {
    const client = this.clients.get(viewerId);
    if (!client || viewerId === playerId || this.players.get(playerId)?.state !== 'joined') return;
    const seen = this.scopes.get(viewerId) ?? new Set<number>();
    this.scopes.set(viewerId, seen);
    if (!inScope || seen.has(playerId)) {
      if (!inScope) seen.delete(playerId);
      return;
    }
    seen.add(playerId);
    const bag = `player:${playerId}`;
    const entries = this.server.stateBags.entries(bag);
    client.queueTask(() => {
      client.stateBags.create(bag);
      for (const [key, value] of entries) client.stateBags.apply(bag, key, value, true, 0);
    });
  }

  /** A dropped player's bag goes from every client, nobody has it in scope any more, and their limits go. */
  playerLeft(playerId: number): void {
    this.scopes.delete(playerId);
    this.dropping.delete(playerId);
    this.limiter.forget(playerId);
    this.stateBagLimiter.forget(playerId);
    const bag = `player:${playerId}`;
    this.clients.forEach((client, id) => {
      this.scopes.get(id)?.delete(playerId);
      client.stateBags.remove(bag);
    });
  }

  /** A joining client starts with the server's replicated view (global and its own player bag). */
  seedClientStateBags(client: Host, playerId: number): void {
    for (const bag of ['global', `player:${playerId}`]) {
      client.stateBags.create(bag);
      for (const [key, value] of this.server.stateBags.entries(bag)) client.stateBags.seed(bag, key, value);
    }
  }

  recordNuiMessage(host: Host, resource: string, data: string): void {
    host.client?.nuiMessages.push({ resource, data });
  }

  /** Entries held per player, by where they are held (Sim.footprint). */
  footprint(): Record<string, number> {
    return {
      players: this.players.size,
      clients: this.clients.size,
      netEventLimits: this.limiter.size,
      stateBagLimits: this.stateBagLimiter.size,
      scopes: this.scopes.size,
      dropping: this.dropping.size,
      serverReferences: this.server.test.referenceCount,
    };
  }

  /** All hosts (server first), for settling and shutdown. */
  hosts(): Host[] {
    return [this.server, ...this.clients.values()];
  }
}
