import { INTERNAL_EVENTS } from '../shared/events.js';
import { CommunityOnDutyCount } from './community/community-on-duty-count.js';
import type { BridgeSettings } from './config/bridge-settings.js';
import { OFF_DUTY, snapshotOf } from './duty/duty-state.js';
import { publishOnDutyCounts } from './duty/effects/on-duty-count.js';
import { NOT_CONFIGURED_DUTY } from './duty/not-configured-duty.js';
import { startGameSide } from './game-side.js';
import { PlayerRegistry } from './players/player-registry.js';
import { Profiles } from './profiles/profiles.js';
import { wireProfileSubscribers } from './profiles/wire-profile-subscribers.js';
import type { BridgeRuntime, ServerPort } from './server-port.js';
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
