// txAdmin as a server running under it sees it, written from tabarra/txAdmin v8.0.1 (d8c5515b). Its core process
// talks to FXServer only through the server's stdin: FxRunner.sendEvent writes `txaEvent "<name>" "<json>"`
// (core/modules/FxRunner/index.ts; the quoting is stringifyConsoleArgs and sanitizeConsoleArgString in
// core/modules/FxRunner/utils.ts), and the monitor resource turns that into the local server event
// `txAdmin:events:<name>` (./monitor/sv_main.lua). The payloads are the ones core builds:
// - serverShuttingDown { delay, author, message }: FxRunner.killServer, then after `delay` (at least 250 ms,
//   MIN_KILL_DELAY) the process is destroyed: no onResourceStop, no playerDropped. `delay` is
//   txConfig.server.shutdownNoticeDelayMs, 5000 by default (core/modules/ConfigStore/schema/server.ts), and
//   `message` is server_actions.restarting or .stopping of locale/en.json;
// - scheduledRestart { secondsRemaining, translatedMessage }: FxScheduler, at 30, 15, 10, 5, 4, 3, 2 and 1 minutes
//   before a scheduled restart (scheduleWarnings);
// - playerKicked { target, author, reason, dropMessage }: core/routes/player/actions.ts (handleKick) for one player,
//   core/routes/fxserver/commands.ts (kick_all) with target -1 for everyone;
// - playerBanned { author, reason, actionId, expiration, durationInput, durationTranslated, targetNetId, targetIds,
//   targetHwids, targetName, kickMessage }: core/routes/player/actions.ts (handleBan).
import path from 'node:path';
import type { SimPlayer } from '../player.js';
import type { Sim } from '../sim.js';

/** The stub of txAdmin's monitor resource: start it as `monitor` (`{ dir: TXADMIN_MONITOR, name: 'monitor' }`). */
export const TXADMIN_MONITOR = path.join(import.meta.dirname, 'monitor');

/** txConfig.server.shutdownNoticeDelayMs's default. */
export const TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS = 5000;
/** FxRunner's MIN_KILL_DELAY: however short the notice, the process lives this long after it. */
const MIN_KILL_DELAY_MS = 250;
/** The minutes before a scheduled restart at which txAdmin warns (FxScheduler's scheduleWarnings). */
export const TXADMIN_RESTART_WARNINGS = [30, 15, 10, 5, 4, 3, 2, 1] as const;

/** sanitizeConsoleArgString: a `;` would end the command, a new line the line. */
const sanitized = (text: string) => text.replaceAll(';', '\u037e').replaceAll('\n', ' ');

/** stringifyConsoleArgs: a string as its JSON, an object as its JSON with every quote escaped, in quotes. */
const consoleArg = (arg: string | object) =>
  typeof arg === 'string'
    ? sanitized(JSON.stringify(arg))
    : `"${sanitized(JSON.stringify(arg).replaceAll('"', '\\"'))}"`;

export interface ShutdownNotice {
  delay?: number;
  author?: string;
  message?: string;
}

/** What txAdmin's core does to a simulated server: `new TxAdmin(sim)` once the monitor stub runs. */
export class TxAdmin {
  constructor(
    private readonly sim: Sim,
    /** The admin whose actions these are (txAdmin sends the name of the admin logged in to its panel). */
    private readonly admin = 'admin',
  ) {}

  /** FxRunner.sendEvent: the event's command, on the server's stdin. */
  sendEvent(name: string, data: object): void {
    this.sim.command(`txaEvent ${consoleArg(name)} ${consoleArg(data)}`);
  }

  /** The notice FxRunner.killServer sends before it stops the server; the process lives on for `delay`. */
  shuttingDown({ delay = TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS, author = 'txAdmin', message }: ShutdownNotice = {}): void {
    this.sendEvent('serverShuttingDown', {
      delay,
      author,
      message: message ?? 'Server restarting (scheduled restart at 06:00).',
    });
  }

  /**
   * A restart or stop from txAdmin: the notice, `delay` of game time (at least MIN_KILL_DELAY), then the process is
   * destroyed without stopping a resource (`sim.kill()`). `sim.restart()` is txAdmin spawning the server again.
   */
  async shutdown(notice: ShutdownNotice = {}): Promise<void> {
    this.shuttingDown(notice);
    await this.sim.advance(Math.max(notice.delay ?? TXADMIN_DEFAULT_SHUTDOWN_DELAY_MS, MIN_KILL_DELAY_MS));
    await this.sim.kill();
  }

  /** FxScheduler's warning `minutes` before a scheduled restart (it sends one at each of TXADMIN_RESTART_WARNINGS). */
  scheduledRestart(minutes: number): void {
    const translatedMessage =
      minutes === 1
        ? 'This server is scheduled to restart in 1 minute. Please disconnect now.'
        : `This server is scheduled to restart in ${minutes} minutes.`;
    this.sendEvent('scheduledRestart', { secondsRemaining: minutes * 60, translatedMessage });
  }

  /** handleKick (one player) or kick_all (`'everyone'`, target -1): the monitor drops them a tick later. */
  kick(target: SimPlayer | 'everyone', reason = 'for unknown reason'): void {
    const everyone = target === 'everyone';
    this.sendEvent('playerKicked', {
      target: everyone ? -1 : target.id,
      author: this.admin,
      reason,
      dropMessage: everyone ? `All players kicked: ${reason}.` : `You have been kicked: ${reason}.`,
    });
  }

  /** handleBan, permanent: the monitor drops every player with one of the banned identifiers a tick later. */
  ban(target: SimPlayer, reason = 'cheating'): void {
    this.sendEvent('playerBanned', {
      author: this.admin,
      reason,
      actionId: 'BXXX-XXXX',
      expiration: false,
      durationInput: 'permanent',
      durationTranslated: null,
      targetNetId: target.id,
      // txAdmin bans the identifiers it knows of the player (license, discord, fivem, ...), never an ip.
      targetIds: target.identifiers.filter((identifier) => !identifier.startsWith('ip:')),
      targetHwids: [],
      targetName: target.name,
      kickMessage: `(${this.admin}) You have been permanently banned from this server for "${reason}".`,
    });
  }
}
