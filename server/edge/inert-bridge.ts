import { INTERNAL_EVENTS } from '../../shared/events.js';
import { CommunityOnDutyCount } from '../community/index.js';
import { NOT_CONFIGURED_DUTY, OFF_DUTY, publishOnDutyCounts, snapshotOf } from '../duty/index.js';
import type { BridgeRuntime, BridgeSettings, ServerPort } from '../kernel/index.js';
import { PlayerRegistry } from '../kernel/index.js';
import { Profiles, wireProfileSubscribers } from '../profiles/index.js';
import { startGameSide } from './game-side.js';
import type { BridgeServer } from './started-bridge.js';

/**
 * The bridge without its convars: up and harmless until the owner sets them and restarts it. Players, exports and
 * commands work; every profile and duty request is answered `not_configured`, and nothing reaches a panel.
 */
export function startInertBridge(
  port: ServerPort,
  runtime: BridgeRuntime,
  { logger, config, token }: BridgeSettings,
): BridgeServer {
  const players = new PlayerRegistry();
  const duty = NOT_CONFIGURED_DUTY;
  const profiles = new Profiles(undefined, players, logger, config.Locale);
  // Without a panel there is no community either: its count is this server's own.
  const communityCount = new CommunityOnDutyCount((key, value) => port.setGlobalState(key, value), logger);
  // Only the client push has work here: every profile is `not_configured`, and nobody is on duty to reconcile.
  const profileSubscribers = wireProfileSubscribers({
    profiles,
    cache: undefined,
    store: port.store,
    isConnected: (src) => players.get(src) !== undefined,
    emitClient: (event, src, ...args) => port.emitClient(event, src, ...args),
    sendDutyState: (src) => port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(OFF_DUTY)),
    logger,
  });
  const game = startGameSide({
    port,
    runtime,
    logger,
    config,
    token,
    players,
    duty,
    profiles,
    playersOnline: () => {},
    panelStatus: () => undefined,
    communityStatus: () => undefined,
    communityCount: (slug) => communityCount.count(slug),
  });
  // Nobody is ever on duty here, and scripts reading the counts find that said.
  const counts = publishOnDutyCounts(
    {
      onDutyPlayers: () => duty.onDutyPlayers(),
      setGlobalState: (key, value) => port.setGlobalState(key, value),
      counted: (own) => communityCount.own(own),
    },
    logger,
  )(duty.dutyChanges$);
  return {
    logger,
    players,
    duty,
    profiles,
    ready: Promise.resolve(),
    stop() {
      game.stop();
      profileSubscribers.unsubscribe();
      counts.unsubscribe();
    },
    footprint: () => game.footprint(),
  };
}
