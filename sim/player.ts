// A joined player as a test drives it: acts on the player's client (exports, events, commands) through the
// client's own test runtime, so every call crosses msgpack exactly as a client script's would.
import { describe } from './codec/msgpack.js';
import type { ChatSuggestion, Notification } from './host/client-data.js';
import type { Host } from './host/host.js';
import type { SimEvent } from './host/log.js';
import type { World } from './host/world.js';
import type { ExportsProxy } from './js/host-runtime.js';
import type { PlayerRecord } from './server/players.js';

export class SimPlayer {
  constructor(
    private readonly world: World,
    private readonly record: PlayerRecord,
    private readonly host: Host,
  ) {}

  /** The final server id (what `source` is for this player's events). */
  get id(): number {
    return this.record.id;
  }
  /** The temporary id it had while connecting (65536 + n). */
  get tempId(): number {
    return this.record.tempId;
  }
  get name(): string {
    return this.record.name;
  }
  get identifiers(): readonly string[] {
    return this.record.identifiers;
  }
  get connected(): boolean {
    return this.record.state === 'joined' && this.host.alive;
  }

  private get client(): Host {
    if (!this.connected) throw new Error(`sim: player ${this.record.id} (${this.record.name}) is not connected`);
    return this.host;
  }

  /** Client-side exports, called like a client JS script would: `p.exports.bridge.GetDutyOptions()`. */
  get exports(): ExportsProxy {
    return this.client.test.exports;
  }

  /** A local event on this client (TriggerEvent), source ''. */
  emit(name: string, ...args: unknown[]): void {
    this.client.test.emit(name, args);
  }

  /** A net event from this client to the server, as if a client script sent it (spoofing is allowed). */
  emitNet(name: string, ...args: unknown[]): void {
    this.world.sendToServer(this.id, name, this.client.test.pack(args), 'sim');
  }

  /** Listens on this client (net-safe); the handler gets the decoded arguments. */
  on(name: string, handler: (...args: unknown[]) => void): void {
    this.client.test.on(name, handler, true);
  }

  /** Types a command (with or without `/`): the client's registration, else the server's with source = this id. */
  command(line: string): void {
    this.world.clientCommand(this.client, line);
  }

  get notifications(): readonly Notification[] {
    return this.host.client?.notifications ?? [];
  }

  get chat(): { messages: readonly unknown[]; suggestions: ReadonlyMap<string, ChatSuggestion> } {
    return { messages: this.host.client?.chatMessages ?? [], suggestions: this.host.client?.suggestions ?? new Map() };
  }

  get nuiMessages(): readonly { resource: string; data: string }[] {
    return this.host.client?.nuiMessages ?? [];
  }

  get keyMappings(): ReadonlyMap<string, { description: string; mapper: string; key: string }> {
    return this.host.client?.keyMappings ?? new Map();
  }

  /** Net events this client received (optionally only `name`), in order. */
  received(name?: string): SimEvent[] {
    return this.world.log.events.filter(
      (e) => e.side === 'client' && e.player === this.id && e.kind === 'net' && (name === undefined || e.name === name),
    );
  }

  /** This client's copy of a state bag (default: its own player bag), decoded. */
  stateBag(bag = `player:${this.id}`): Record<string, unknown> {
    return Object.fromEntries(this.host.stateBags.entries(bag).map(([k, v]) => [k, describe(v)]));
  }

  /** A convar as this client sees it (only replicated ones). */
  convar(name: string): string | undefined {
    const convar = this.world.convars.get(name);
    return convar?.replicated ? convar.value : undefined;
  }

  resourceState(name: string): string {
    return this.host.resources.get(name)?.state ?? 'missing';
  }

  // The reasons below are FXServer's own (citizenfx/fivem 06d4d348): what the client sends in its msgIQuit
  // (IQuitPacketHandler.h drops it with ClientDropReason::CLIENT, 2, resource `__cfx_internal:client`), or what the
  // server writes itself (GameServer.cpp, ClientDropReasons.h).

  /**
   * The player leaves: playerDropped(reason, '__cfx_internal:client', 2) on the server, the client goes away.
   * `Disconnected.` is the game's own menu (LeaveGameHandler.cpp, ConnectToNative.cpp).
   */
  drop(reason = 'Disconnected.'): void {
    // Through the world's hook, as a drop by the server goes: the Sim forgets the player there.
    this.world.dropPlayer(this.record, reason, '__cfx_internal:client', 2);
  }

  /** The player closes the game: `Exiting` (NetHook.cpp, ExitCleanly), or `Quit: <message>` from the quit command. */
  quit(message?: string): void {
    this.drop(message === undefined ? 'Exiting' : `Quit: ${message}`);
  }

  /**
   * The game crashes: its crash handler has the client send `Game crashed: <what crashed>` before the process dies
   * (MiniDump.cpp, friendlyReason, through OnAbnormalTermination in NetLibrary.cpp).
   */
  crash(what = 'GTA5_b3258.exe!rage::fwEntity::GetTransform (0x1A2B3C)'): void {
    this.drop(`Game crashed: ${what}`);
  }

  /**
   * The game stops answering (a freeze, a lost connection): the server drops the client once it has not been
   * heard from for CLIENT_DEAD_TIMEOUT (60 s), with ClientDropReason::CLIENT_CONNECTION_TIMED_OUT (5) from
   * `__cfx_internal:server` (GameServer.cpp). The 60 s of silence are not waited for here.
   */
  timeOut(lastSeenMs = 60_012): void {
    this.world.dropPlayer(
      this.record,
      `Server->client connection timed out. Last seen ${lastSeenMs} msec ago.`,
      '__cfx_internal:server',
      5,
    );
  }
}
