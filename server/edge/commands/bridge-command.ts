// The `bridge` console command and its subcommands (status, refresh, offduty, release), and the wiring of every
// command the server registers.
import type { BridgeServerExports, DutyOutcome, ProfilePayload } from '../../../shared/events.js';
import type { Duty } from '../../duty/index.js';
import type { BridgeRuntime, Logger, PlayerRegistry, ServerPort } from '../../kernel/index.js';
import type { StatusSnapshot } from '../../metrics/index.js';
import { parsePlayerId, registerDutyKickCommand } from './dutykick-command.js';
import { formatStatus, statusReader } from './status.js';

/** The restricted console command every admin action hangs off: `bridge <subcommand> [arguments]`. */
export const ADMIN_COMMAND = 'bridge';

export interface CommandContext {
  /** Who ran it: 0 for the console, else a player allowed by the ACE `command.bridge`. */
  src: number;
  reply(line: string): void;
}

export interface Subcommand {
  name: string;
  /** Arguments after the name, for the help text (e.g. `<player id>`); empty when there are none. */
  usage: string;
  summary: string;
  run(context: CommandContext, args: string[]): void;
}

/**
 * Registers `bridge` as a restricted command (the console, and players granted `command.bridge`). A new admin action
 * is one more `Subcommand`; `bridge` alone or `bridge help` lists them.
 */
export function registerAdminCommand(
  port: Pick<ServerPort, 'registerCommand' | 'reply'>,
  subcommands: readonly Subcommand[],
  { redact, onError }: { redact: (text: string) => string; onError: (message: string) => void },
): void {
  const byName = new Map(subcommands.map((subcommand) => [subcommand.name, subcommand]));
  const rows = [
    ...subcommands.map(({ name, usage, summary }) => [`${name} ${usage}`.trim(), summary] as const),
    ['help', 'this list'] as const,
  ];
  const width = Math.max(...rows.map(([call]) => call.length));
  const row = ([call, summary]: readonly [string, string]) => `  ${call.padEnd(width)}  ${summary}`;
  const help = (): string[] => [`usage: ${ADMIN_COMMAND} <subcommand>`, ...rows.map(row)];
  // A required argument is written `<…>`: without it, the subcommand's own usage says what to type.
  const usageOf = ({ name, usage, summary }: Subcommand): string[] => [
    `usage: ${ADMIN_COMMAND} ${name} ${usage}`,
    `  ${summary}`,
  ];

  port.registerCommand(
    ADMIN_COMMAND,
    (src, args) => {
      const reply = (line: string) => port.reply(src, redact(line));
      const [name = 'help', ...rest] = args;
      const subcommand = byName.get(name.toLowerCase());
      if (name.toLowerCase() === 'help' || !subcommand) {
        if (name.toLowerCase() !== 'help') reply(`unknown subcommand "${name}"`);
        for (const line of help()) reply(line);
        return;
      }
      if (subcommand.usage.startsWith('<') && rest.length === 0) {
        for (const line of usageOf(subcommand)) reply(line);
        return;
      }
      try {
        subcommand.run({ src, reply }, rest);
      } catch (error) {
        onError(`${ADMIN_COMMAND} ${subcommand.name} failed: ${String(error)}`);
        reply(`${ADMIN_COMMAND} ${subcommand.name} failed; see the server console`);
      }
    },
    true,
  );
}

/** `bridge status`: the panel, the budget, the queues, the outbox, the cache and who is on duty, at a glance. */
export function statusCommand(read: () => StatusSnapshot): Subcommand {
  return {
    name: 'status',
    usage: '',
    summary: 'panel reachability and latency, budget, queues per class, outbox, cache, players on duty',
    run({ reply }) {
      for (const line of formatStatus(read())) reply(line);
    },
  };
}

export interface RefreshCommandDeps {
  connectedPlayers(): number[];
  isConnected(src: number): boolean;
  /** Fetches the player's profile bypassing the cache and the player's cooldown, and sends it to them. */
  refresh(src: number): Promise<ProfilePayload>;
}

/** A refreshed profile in one line: `player 5: lspd (Sergeant), bcso (Deputy)`. */
export const describeRefresh = (src: number, profile: ProfilePayload): string =>
  profile.ok
    ? `player ${src}: ${profile.departments.map((d) => `${d.slug} (${d.rank.name})`).join(', ') || 'no departments'}`
    : `player ${src}: ${profile.error}`;

/** `bridge refresh <id|all>`: what /dutyrefresh does, for one player or everyone online, without the cooldown. */
export function refreshCommand(deps: RefreshCommandDeps): Subcommand {
  return {
    name: 'refresh',
    usage: '<player id|all>',
    summary: 'fetch departments and ranks again, bypassing the cache',
    run({ reply }, [target]) {
      const ids =
        target === 'all'
          ? deps.connectedPlayers()
          : [parsePlayerId(target, deps.isConnected)].filter((id) => id !== undefined);
      if (ids.length === 0) {
        reply(
          target === 'all'
            ? 'no players are online'
            : `no connected player "${target ?? ''}"; usage: bridge refresh <player id|all>`,
        );
        return;
      }
      reply(`refreshing ${ids.length} player(s)`);
      for (const src of ids) {
        void deps.refresh(src).then(
          (profile) => reply(describeRefresh(src, profile)),
          (error: unknown) => reply(`player ${src}: refresh failed (${String(error)})`),
        );
      }
    },
  };
}

export interface OffDutyCommandDeps {
  isConnected(src: number): boolean;
  /** Takes the player off duty as an administrator: the panel call, the events, the player's notification. */
  takeOffDuty(src: number): Promise<DutyOutcome>;
}

/** `bridge offduty <id>`: ends a player's duty, e.g. one who went away from the keyboard on duty. */
export function offDutyCommand(deps: OffDutyCommandDeps): Subcommand {
  return {
    name: 'offduty',
    usage: '<player id>',
    summary: 'take a player off duty',
    run({ reply }, [target]) {
      const src = parsePlayerId(target, deps.isConnected);
      if (src === undefined) {
        reply(`no connected player "${target ?? ''}"; usage: bridge offduty <player id>`);
        return;
      }
      void deps.takeOffDuty(src).then((outcome) => {
        if (!outcome.ok) reply(`player ${src}: ${outcome.error} (${outcome.message})`);
        else reply(outcome.changed ? `player ${src} is now off duty` : `player ${src} was not on duty`);
      });
    },
  };
}

/**
 * `bridge release` (BRIDGE_REDIS_URL): the duty calls held because Redis cannot confirm them are sent without the
 * confirmation. For an owner whose Redis stays down: it says what that risks (an `off` may end a shift the account
 * opened on another server since), and the console gets one WARN.
 */
export function releaseCommand(releaseHeld: () => number): Subcommand {
  return {
    name: 'release',
    usage: '',
    summary: 'send the duty calls held for Redis without its confirmation (an off may end a shift on another server)',
    run({ reply }) {
      const count = releaseHeld();
      reply(
        count === 0
          ? 'no duty call is held for Redis'
          : `released ${count} duty call(s) held for Redis; they are sent now without its confirmation: an off among them may end a shift the account opened on another server since`,
      );
    },
  };
}

export interface BridgeCommandsWiring {
  port: ServerPort;
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  logger: Logger;
  players: PlayerRegistry;
  duty: Pick<Duty, 'onDutyPlayers'>;
  serverExports: Pick<BridgeServerExports, 'RefreshPlayer' | 'SetPlayerDuty'>;
  /** The panel's part of `bridge status`; undefined when the bridge is not configured. */
  panelStatus: () => StatusSnapshot['panel'];
  /** The community's part of `bridge status`; undefined when the bridge is not configured. */
  communityStatus: () => StatusSnapshot['community'];
  cachedProfiles: () => number;
  /** With BRIDGE_REDIS_URL: the duty calls held for Redis go without its confirmation (`bridge release`). */
  releaseHeld?: () => number;
}

/** The server's commands: `bridge` (status, refresh, offduty) for the console, `/dutykick` for supervisors. */
export function registerBridgeCommands(wiring: BridgeCommandsWiring): void {
  const { port, logger, players, serverExports } = wiring;
  const isConnected = (src: number) => players.get(src) !== undefined;
  registerAdminCommand(
    port,
    [
      statusCommand(statusReader(wiring)),
      refreshCommand({
        connectedPlayers: () => players.all().map((session) => session.src),
        isConnected,
        refresh: serverExports.RefreshPlayer,
      }),
      offDutyCommand({ isConnected, takeOffDuty: (src) => serverExports.SetPlayerDuty(src, false) }),
      ...(wiring.releaseHeld ? [releaseCommand(wiring.releaseHeld)] : []),
    ],
    { redact: (text) => logger.redact(text), onError: (message) => logger.error(message) },
  );
  registerDutyKickCommand({ port, logger, players, takeOffDuty: (src) => serverExports.SetPlayerDuty(src, false) });
}
