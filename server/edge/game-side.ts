import type { BridgeConfig } from '../../shared/config/index.js';
import { type BridgeServerExports, INTERNAL_EVENTS } from '../../shared/events.js';
import type { Duty } from '../duty/index.js';
import { OFF_DUTY, onDutyByDepartment } from '../duty/index.js';
import type { Integrations } from '../integrations/index.js';
import { loadIntegrations } from '../integrations/index.js';
import type { BridgeRuntime, Logger, PlayerRegistry, PlayerSession, ServerPort } from '../kernel/index.js';
import type { StatusSnapshot } from '../metrics/index.js';
import { departmentsSeen$, startMetricsWhenOn } from '../metrics/index.js';
import type { Profiles } from '../profiles/index.js';
import { RevalidationAsks } from '../profiles/index.js';
import { createAceConsole, PrincipalGrants } from './ace-principals.js';
import { ClientEventLimits } from './client-event-limits.js';
import { subscribeClientEvents } from './client-events.js';
import { registerBridgeCommands } from './commands/bridge-command.js';
import { statusReader } from './commands/status.js';
import type { StateBagGuard } from './duty-state-bag.js';
import { guardDutyStateBags, publishDutyState } from './duty-state-bag.js';
import { registerServerExports } from './server-exports.js';
import { TokenExposureCheck } from './token-exposure-check.js';

export interface GameSideWiring {
  port: ServerPort;
  runtime: BridgeRuntime;
  logger: Logger;
  config: BridgeConfig;
  token: string;
  players: PlayerRegistry;
  duty: Duty;
  profiles: Profiles;
  /** Told the number of players online after each join. */
  playersOnline: (count: number) => void;
  /** The panel's part of `bridge status`; undefined when the bridge is not configured. */
  panelStatus: () => StatusSnapshot['panel'];
  /** The community's part of `bridge status`; undefined when the bridge is not configured. */
  communityStatus: () => StatusSnapshot['community'];
  /** GetCommunityOnDutyCount's answer. */
  communityCount: (slug: unknown) => number;
  /** `bridge release` (BRIDGE_REDIS_URL): the duty calls held for Redis go without its confirmation; how many. */
  releaseHeld?: () => number;
  /** In a community: a session that joins takes over its account's shift held on another server, if there is one. */
  takeHeldElsewhere?: (src: number) => Promise<void>;
}

/** What the bridge keeps on the game's side, whatever is behind it. */
export interface GameSide {
  readonly stateBags: StateBagGuard;
  /** The ACE principals of players on duty (Config.AcePermissions); what a crashed run left is gone already. */
  readonly principals: PrincipalGrants;
  readonly integrations: Integrations;
  readonly serverExports: BridgeServerExports;
  /** Entries held per player: all zero once everyone has left. */
  footprint(): Record<string, number>;
  stop(): void;
}

/**
 * The game's side of the bridge, the same with or without a panel: the players' sessions and state bags, their
 * clients' events, the integrations, the server exports and the `bridge` command.
 */
export function startGameSide(wiring: GameSideWiring): GameSide {
  const { port, runtime, logger, config, players, duty, profiles } = wiring;
  const stateBags = guardDutyStateBags(port, runtime, logger);
  // Before anyone can be on duty: principals a run that ended without taking them back left to players.
  const principals = new PrincipalGrants(createAceConsole(port), port.store, logger);
  principals.endLeftOver();
  // The integrations and the metrics are loaded from files of their own, only when config.lua turns them on.
  const integrations = loadIntegrations(
    {
      config: config.Integrations,
      resources: port.resources,
      duty: {
        isOnDuty: (src) => duty.state(src).onDuty,
        takeOffDuty: (src, reason) => duty.submit({ kind: 'off', src, reason }),
      },
      logger,
      store: port.store,
      wallNow: runtime.wallNow,
      connectedPlayers: () => port.connectedPlayers(),
    },
    runtime.load,
  );
  const tokenExposure = new TokenExposureCheck({
    token: wiring.token,
    logger,
    challenge: (src, nonce) => port.emitClient(INTERNAL_EVENTS.tokenCheck, src, nonce),
  });
  const limits = new ClientEventLimits(runtime.now, logger);
  const revalidationAsks = new RevalidationAsks(config.RefreshIntervalMs, runtime.now);
  const openSession = sessionOpener({ players, port, stateBags });

  const serverExports = registerServerExports({
    ...{ port, duty, players, profiles, messages: config.Locale },
    communityCount: wiring.communityCount,
  });
  const clientEvents = subscribeClientEvents({
    ...wiring,
    resumeShifts: config.ResumeWindowMs > 0,
    refreshOther: serverExports.RefreshPlayer,
    now: runtime.now,
    refreshCooldownMs: config.RefreshCooldownMs,
    openSession,
    limits,
    revalidationAsks,
    tokenExposure,
    forget: (src) => {
      integrations.playerDropped(src);
      stateBags.forget(src);
      players.remove(src);
      duty.forget(src);
      limits.forget(src);
      revalidationAsks.forget(src);
      tokenExposure.forget(src);
    },
  });
  for (const src of port.connectedPlayers()) openSession(src);
  // A restart with players online: they count for the short-interval warning as joins would.
  wiring.playersOnline(players.size);

  registerBridgeCommands({ ...wiring, serverExports, cachedProfiles: () => profiles.cachedCount() });
  const readStatus = statusReader({ ...wiring, cachedProfiles: () => profiles.cachedCount() });
  const metrics = startMetricsWhenOn(
    {
      port,
      config,
      logger,
      panelToken: wiring.token,
      read: () => ({ status: readStatus(), onDutyByDepartment: onDutyByDepartment(duty.onDutyPlayers()) }),
      departments$: departmentsSeen$(profiles.profiles$, duty.dutyChanges$),
    },
    runtime.load,
  );

  return {
    stateBags,
    principals,
    integrations,
    serverExports,
    footprint: () => ({
      players: players.size,
      ...Object.fromEntries(Object.entries(duty.footprint()).map(([name, size]) => [`duty.${name}`, size])),
      clientEventLimits: limits.size,
      revalidationAsks: revalidationAsks.size,
      stateBagGuard: stateBags.size,
      acePrincipals: principals.size,
      tokenChallenges: tokenExposure.size,
      ...Object.fromEntries(
        Object.entries(integrations.footprint()).map(([where, size]) => [`integrations.${where}`, size]),
      ),
    }),
    stop() {
      clientEvents.unsubscribe();
      metrics.unsubscribe();
      stateBags.stop();
    },
  };
}

export interface SessionOpenerOptions {
  players: PlayerRegistry;
  port: Pick<ServerPort, 'playerName' | 'playerIdentifiers'>;
  stateBags: Pick<StateBagGuard, 'publish'>;
}

/**
 * The player's session, opened the first time the bridge hears of them (a join, a client that is ready, a player
 * already online at start): their bag says off duty from the start, so a forged value never stands unanswered.
 */
export const sessionOpener =
  ({ players, port, stateBags }: SessionOpenerOptions) =>
  (src: number): PlayerSession => {
    const known = players.get(src);
    if (known) return known;
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, OFF_DUTY);
    return players.add(src, port.playerName(src), port.playerIdentifiers(src));
  };

/** The player as the duty service needs them: only a player with a chat account can go on duty. */
export const dutyPlayerOf =
  (players: PlayerRegistry) =>
  (src: number): { chatId: string; name: string } | undefined => {
    const session = players.get(src);
    return session?.chat.ok ? { chatId: session.chat.chatId, name: session.name } : undefined;
  };
