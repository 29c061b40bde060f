import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DutyOptionDepartment, DutyOptions } from '../client/bridge-client.js';
import {
  COMMUNITY_ON_DUTY_COUNT_KEY,
  DUTY_STATE_BAG_KEY,
  type DutyEndReason,
  type DutyOutcome,
  type OffDutyPayload,
  type PlayerDuty,
  type ProfilePayload,
} from '../shared/events.js';
import { type ConsoleLine, createSim, type Sim, type SimEvent, type SimPlayer } from '../sim/index.js';
import { bridgeResource } from './bridge-resource.js';
import { type DutyCommandAnswer, DutyCommandRunner } from './duty-command-runner.js';
import { chatLinesOf, onDutyCountOf } from './server-view.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHOWN = 100;
// The simulator records everything; a playground left running for hours keeps only a window of it.
const TRIM_ABOVE = 5_000;
const OUTCOME_WAIT_MS = 30_000;
const SHOWN_PER_PLAYER = 5;
const CHAT_SHOWN_PER_PLAYER = 8;
/** The bridge's duty command (Config.DutyCommand), turned on in the playground under its default name. */
const DUTY_COMMAND = 'duty';

export interface PlaygroundUser {
  chatId: string;
  name: string;
}

export interface PlaygroundOptions {
  /** The mock panel the bridge talks to. */
  apiBase: string;
  /** Which server of the community this is (1 when alone), shown with its players, events and console lines. */
  server?: number;
  /** BRIDGE_REDIS_URL: the community's Redis; none, the bridge is alone as before issue 25. */
  redisUrl?: string;
  token: string;
  /** Who can join from the dashboard, asked each time: a user added to the panel while it runs is among them. */
  users: () => readonly PlaygroundUser[];
  /** The bridge's `Config.RefreshIntervalMs`; by default the shipped config.lua's. */
  refreshIntervalMs?: number;
  /** More lines for the bridge's config.lua (a test's `Config.RefreshCooldownMs = 0`). */
  config?: readonly string[];
  /** More resources for the simulated server, started after the bridge (`npm start -- --resource ../my-mdt`). */
  resources?: ReadonlyArray<{ dir: string; name: string }>;
  /**
   * More server.cfg lines (`npm start -- --cfg extra.cfg`): run after the playground's own, before any resource
   * starts. An `ensure` among them starts that resource there, as in FXServer.
   */
  serverCfg?: readonly string[];
  /** Hears every console line of this server as it is printed (the CLI prints those of the tester's resources). */
  echo?: (line: ConsoleLine, server: number) => void;
  /**
   * Called with why the bridge took a player off duty, as the game side shows it: the reason of
   * `bridge:client:offDuty`, or `dropped` for a player the playground drops while on duty (their client is gone).
   */
  onOffDuty?: (chatId: string, departmentId: number, reason: DutyEndReason) => void;
}

export interface PlaygroundPlayer {
  /** The server the player is on (1 when alone); `id` is their server id there. */
  server: number;
  id: number;
  name: string;
  chatId: string | null;
  onDuty: boolean;
  departmentId: number | null;
  departmentName: string | null;
  rankName: string | null;
  since: number | null;
  selectedDeptId: number | null;
  departments: Array<{ id: number; name: string; rank: { id: number; name: string } }>;
  error: string | null;
  notifications: string[];
  /** The last lines of the player's chat window (the duty command lists departments there). */
  chat: string[];
  /**
   * The principals the player is in on the server (add_principal on one of their identifiers, directly or
   * inherited): the bridge's `bridge.<slug>`, `bridge.<slug>.<rankId>` and `bridge.onduty` while on duty, and
   * anything the owner granted.
   */
  principals: string[];
}

export interface PlaygroundState {
  ok: true;
  demoUsers: PlaygroundUser[];
  players: PlaygroundPlayer[];
  /** The duty command as players type it (`/duty`). */
  dutyCommand: string;
  /** `GlobalState['bridge:onDutyCount']` as the server holds it; null while it is not published. */
  onDutyCount: Record<string, number> | null;
  /**
   * `GlobalState['bridge:communityOnDutyCount']` as the server holds it: every server's duty with Redis, this
   * server's own without; null while it is not published.
   */
  communityOnDutyCount: Record<string, number> | null;
  events: Array<{
    server: number;
    at: number;
    side: 'server' | 'client';
    player: number | null;
    name: string;
    args: string;
  }>;
  console: Array<{ server: number; at: number; text: string }>;
}

/** Refusals of a playground action: the dashboard shows the message. */
export class PlaygroundError extends Error {
  constructor(
    readonly code: 'player_not_found' | 'department_not_found' | 'server_not_found' | 'no_redis' | 'no_answer',
    message: string,
  ) {
    super(message);
  }
}

// The bridge's public events: what another resource would see of it.
const isPublicEvent = (name: string) => name.startsWith('bridge:server:') || name.startsWith('bridge:client:');

/**
 * The bridge running in the FXServer simulator (sim/) against a mock panel, with players a tester drives from
 * the dashboard: join, drop, pick a department, go on and off duty, /dutyrefresh, the bridge's /duty. Duty goes
 * through the bridge's client exports exactly as another resource's duty menu calls them, or through /duty as the
 * player types it.
 */
export class Playground {
  private readonly profiles = new Map<number, ProfilePayload>();
  private readonly selected = new Map<number, number>();
  private readonly events: PlaygroundState['events'] = [];
  private readonly consoleLines: PlaygroundState['console'] = [];
  private eventsSeen = 0;
  private consoleSeen = 0;

  private readonly dutyCommands: DutyCommandRunner;

  private constructor(
    private readonly sim: Sim,
    private readonly options: PlaygroundOptions,
    private readonly workDir: string,
  ) {
    this.dutyCommands = new DutyCommandRunner(sim, DUTY_COMMAND);
  }

  static async start(options: PlaygroundOptions): Promise<Playground> {
    const workDir = mkdtempSync(join(tmpdir(), 'bridge-playground-'));
    const kvpDir = join(workDir, 'kvp');
    mkdirSync(kvpDir);
    const { refreshIntervalMs, config = [], echo, server = 1 } = options;
    const configLines = [
      `Config.DutyCommand = { Enabled = true, Name = '${DUTY_COMMAND}' }`,
      'Config.AcePermissions = true',
      ...(refreshIntervalMs === undefined ? [] : [`Config.RefreshIntervalMs = ${refreshIntervalMs}`]),
      ...config,
    ];
    const bridgeDir = bridgeResource(REPO_ROOT, workDir, configLines);
    // The bridge's own duty command stands in for a duty menu resource (the Lua example registers /duty as well).
    const sim = await createSim({
      resources: [{ dir: bridgeDir, name: 'bridge' }, ...(options.resources ?? [])],
      convars: {
        BRIDGE_API_BASE: options.apiBase,
        BRIDGE_LEO_API_TOKEN: options.token,
        ...(options.redisUrl ? { BRIDGE_REDIS_URL: options.redisUrl } : {}),
      },
      // What server.cfg must allow for Config.AcePermissions: the bridge runs add_principal and remove_principal.
      aces: [
        'add_ace resource.bridge command.add_principal allow',
        'add_ace resource.bridge command.remove_principal allow',
        ...(options.serverCfg ?? []),
      ],
      kvpDir,
      clock: 'real',
      recordEvents: (name) => name.startsWith('bridge:'),
      echo: echo && ((line) => echo(line, server)),
    });
    return new Playground(sim, options, workDir);
  }

  state(): PlaygroundState {
    this.collect();
    return {
      ok: true,
      demoUsers: [...this.options.users()],
      players: this.sim.players.map((player) => this.describe(player)),
      dutyCommand: `/${DUTY_COMMAND}`,
      onDutyCount: onDutyCountOf(this.sim),
      communityOnDutyCount: onDutyCountOf(this.sim, COMMUNITY_ON_DUTY_COUNT_KEY),
      events: this.events.slice(-SHOWN).reverse(),
      console: this.consoleLines.slice(-SHOWN).reverse(),
    };
  }

  /** Which server of the community this is (1 when alone). */
  get server(): number {
    return this.options.server ?? 1;
  }

  /** Joins a player with that chat account and waits for the bridge to send their profile. */
  async join(chatId: string, name?: string): Promise<{ id: number; name: string }> {
    const known = this.options.users().find((user) => user.chatId === chatId);
    const player = await this.sim.join({
      name: name?.trim() || known?.name || `Player ${chatId.slice(-4)}`,
      identifiers: [`license:${chatId.padStart(40, '0').slice(-40)}`, `chat:${chatId}`],
    });
    this.dutyCommands.watch(player);
    await this.until(() => this.profiles.has(player.id), 'the profile of the new player');
    return { id: player.id, name: player.name };
  }

  drop(id: number): void {
    // The bridge's off call for a dropped player reaches the panel after this: the reason waits for it there.
    const { chatId, onDuty, departmentId } = this.describe(this.player(id));
    if (onDuty && chatId !== null && departmentId !== null) this.options.onOffDuty?.(chatId, departmentId, 'dropped');
    this.player(id).drop('left the playground');
    this.selected.delete(id);
    this.profiles.delete(id);
    this.dutyCommands.forget(id);
  }

  /** What a duty menu does when the player picks a department: `setActive()` on it. */
  selectDepartment(id: number, departmentId: number): void {
    const options = this.player(id).exports.bridge?.GetDutyOptions?.() as DutyOptions | undefined;
    const department = options?.departments.find((entry) => entry.id === departmentId);
    if (!department) {
      throw new PlaygroundError('department_not_found', `player ${id} holds no department ${departmentId}`);
    }
    department.setActive();
    this.selected.set(id, departmentId);
  }

  /** `UpdatePlayerDuty(on, callback)`, resolved with the outcome the callback receives. */
  async duty(id: number, on: boolean): Promise<DutyOutcome> {
    const player = this.player(id);
    let outcome: DutyOutcome | undefined;
    const update = player.exports.bridge?.UpdatePlayerDuty as
      | ((status: boolean, callback: (result: DutyOutcome) => void) => boolean)
      | undefined;
    update?.(on, (result) => {
      outcome = result;
    });
    await this.until(() => outcome !== undefined, 'the duty outcome');
    return outcome as DutyOutcome;
  }

  refresh(id: number): void {
    this.player(id).command('dutyrefresh');
  }

  /** The player types the bridge's duty command with these arguments (`''`, `off`, `lspd`, `2`). */
  dutyCommand(id: number, args: string): Promise<DutyCommandAnswer> {
    return this.dutyCommands.run(this.player(id), args, (done, what) => this.until(done, what));
  }

  /**
   * The simulated server, for tests that set up what the page shows as a real server would have it: a console line
   * (`add_principal`), another resource's exports.
   */
  get simulator(): Sim {
    return this.sim;
  }

  async close(): Promise<void> {
    await this.sim.stop();
    rmSync(this.workDir, { recursive: true, force: true });
  }

  private player(id: number): SimPlayer {
    const player = this.sim.players.find((candidate) => candidate.id === id);
    if (!player) throw new PlaygroundError('player_not_found', `no player ${id} is connected`);
    return player;
  }

  private async until(done: () => boolean, what: string): Promise<void> {
    try {
      await this.sim.until(() => {
        this.collect();
        return done();
      }, OUTCOME_WAIT_MS);
    } catch {
      throw new PlaygroundError('no_answer', `the bridge did not send ${what} within ${OUTCOME_WAIT_MS / 1000} s`);
    }
  }

  private chatIdOf(playerId: number): string | null {
    const player = this.sim.players.find((candidate) => candidate.id === playerId);
    const chat = player?.identifiers.find((identifier) => identifier.startsWith('chat:'));
    return chat?.slice('chat:'.length) ?? null;
  }

  private describe(player: SimPlayer): PlaygroundPlayer {
    const profile = this.profiles.get(player.id);
    const duty = this.sim.stateBag(`player:${player.id}`)[DUTY_STATE_BAG_KEY] as PlayerDuty | undefined;
    const menu = this.menu(player);
    const departments = menu.departments.map(({ id, name, rank }) => ({
      id,
      name,
      rank: { id: rank.id, name: rank.name },
    }));
    const current = departments.find((department) => department.id === duty?.departmentId);
    const chat = player.identifiers.find((identifier) => identifier.startsWith('chat:'));
    return {
      server: this.server,
      id: player.id,
      name: player.name,
      chatId: chat?.slice('chat:'.length) ?? null,
      onDuty: duty?.onDuty ?? false,
      departmentId: duty?.departmentId ?? null,
      departmentName: duty?.onDuty ? (current?.name ?? duty.departmentSlug) : null,
      rankName: duty?.onDuty ? (current?.rank.name ?? null) : null,
      since: duty?.since ?? null,
      selectedDeptId: menu.selectedDeptId,
      departments,
      error: profile && !profile.ok ? profile.message : null,
      notifications: player.notifications.slice(-SHOWN_PER_PLAYER).map((notification) => notification.text),
      chat: chatLinesOf(player).slice(-CHAT_SHOWN_PER_PLAYER),
      principals: this.sim.principalsOf(player.id),
    };
  }

  /**
   * What the player's duty menu shows, asked of `GetDutyOptions()` each time the dashboard looks, as a menu open on
   * screen would (so the bridge may revalidate a stale profile). The list is the client's latest profile; one
   * department stays selected: the client's choice while it holds, else the one picked here, else the first.
   */
  private menu(player: SimPlayer): { departments: DutyOptionDepartment[]; selectedDeptId: number | null } {
    const options = (player.exports.bridge?.GetDutyOptions as (() => DutyOptions) | undefined)?.();
    const departments = options?.ok ? options.departments : [];
    const held = (id: number | null | undefined) => departments.find((department) => department.id === id);
    // While on duty the client selects the duty's department; a removed one ends the duty, then the menu moves on.
    if (options?.onDuty) return { departments, selectedDeptId: options.selectedDeptId };
    const chosen = held(options?.selectedDeptId) ?? held(this.selected.get(player.id)) ?? departments[0];
    if (!chosen) {
      this.selected.delete(player.id);
      return { departments, selectedDeptId: null };
    }
    if (chosen.id !== options?.selectedDeptId) chosen.setActive();
    this.selected.set(player.id, chosen.id);
    return { departments, selectedDeptId: chosen.id };
  }

  /** Takes what the simulator recorded since the last look into the playground's own bounded lists. */
  private collect(): void {
    const { sim } = this;
    for (const event of sim.events.slice(this.eventsSeen)) this.take(event);
    for (const line of sim.console.slice(this.consoleSeen))
      this.consoleLines.push({ server: this.server, at: sim.now(), text: line.line });
    this.eventsSeen = sim.events.length;
    this.consoleSeen = sim.console.length;
    if (this.eventsSeen > TRIM_ABOVE || this.consoleSeen > TRIM_ABOVE) {
      sim.clearLogs();
      this.eventsSeen = 0;
      this.consoleSeen = 0;
    }
    for (const list of [this.events, this.consoleLines])
      if (list.length > SHOWN * 2) list.splice(0, list.length - SHOWN);
  }

  private take(event: SimEvent): void {
    if (event.name === 'bridge:client:profile' && event.side === 'client' && event.player !== null) {
      this.profiles.set(event.player, event.args[0] as ProfilePayload);
    }
    if (event.name === 'bridge:client:offDuty' && event.side === 'client' && event.player !== null) {
      const chatId = this.chatIdOf(event.player);
      const { departmentId, reason } = event.args[0] as OffDutyPayload;
      if (chatId !== null) this.options.onOffDuty?.(chatId, departmentId, reason);
    }
    if (!isPublicEvent(event.name)) return;
    this.events.push({
      server: this.server,
      at: event.time,
      side: event.side,
      player: event.player,
      name: event.name,
      args: JSON.stringify(event.args),
    });
  }
}
