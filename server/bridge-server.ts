import { panelStatusOf } from './commands/panel-status.js';
import { CommunityOnDutyCount } from './community/community-on-duty-count.js';
import { startCommunityRun } from './community/community-run.js';
import { joinCommunity } from './community/load-community.js';
import { readBridgeSettings } from './config/bridge-settings.js';
import { endDutiesLeftOpen } from './duty/crashed-run-recovery.js';
import type { Duty } from './duty/duty.js';
import { DutyService } from './duty/duty-service.js';
import { DutyStates } from './duty/duty-states.js';
import { grantDutyPrincipals } from './duty/effects/ace-principals.js';
import { emitClientDutyEvents } from './duty/effects/client-events.js';
import { logDutyChanges } from './duty/effects/duty-log.js';
import { publishDutyStateBags } from './duty/effects/duty-state-bag.js';
import { tellIntegrations } from './duty/effects/integrations.js';
import { publishOnDutyCounts } from './duty/effects/on-duty-count.js';
import { pollOnDutyProfiles } from './duty/effects/on-duty-polling.js';
import { recordOpenDuties } from './duty/effects/open-duty-record.js';
import { emitServerDutyEvents } from './duty/effects/server-events.js';
import { subscribeDutyEffects } from './duty/effects/subscribe-duty-effects.js';
import { OpenDutyLedger } from './duty/open-duty-ledger.js';
import { Outbox } from './duty/outbox.js';
import { startGameSide } from './game-side.js';
import { startInertBridge } from './inert-bridge.js';
import type { Logger } from './log/logger.js';
import { createPanelStack } from './panel/panel-stack.js';
import { probeThenResume } from './panel/start-up.js';
import { PlayerRegistry } from './players/player-registry.js';
import { dutyPlayerOf } from './players/player-sessions.js';
import { shareProfilesWithCommunity } from './profiles/community-profile-sharing.js';
import { OnDutyRevalidation } from './profiles/on-duty-revalidation.js';
import { connectProfiles } from './profiles/profile-delivery.js';
import type { ProfileService } from './profiles/profile-service.js';
import { announceShortRefreshInterval } from './profiles/short-refresh-interval.js';
import type { BridgeRuntime, ServerPort } from './server-port.js';

export interface BridgeServer {
  readonly logger: Logger;
  readonly players: PlayerRegistry;
  readonly duty: Duty;
  readonly profiles: ProfileService;
  /** Resolves once the start-up probe has answered (immediately when not configured). */
  readonly ready: Promise<void>;
  /** The resource is stopping: everyone on duty goes off duty now; the panel calls wait in KVP if need be. */
  stop(): void;
  /** Entries held per player or chat account, by where they are held: all zero once everyone has left. */
  footprint(): Record<string, number>;
}

/** The composition root: builds the bridge's parts and wires them; what each does lives in its own module. */
export function startBridgeServer(port: ServerPort, runtime: BridgeRuntime): BridgeServer {
  const settings = readBridgeSettings(port);
  if (!settings.panel) return startInertBridge(port, runtime, settings);
  const { logger, config, token } = settings;
  const { apiBase } = settings.panel;
  const budget = { limit: config.PanelRateLimit.Requests, windowMs: config.PanelRateLimit.WindowMs };
  // With BRIDGE_REDIS_URL, the servers naming the same Redis and panel are one community (server/community/).
  const community = settings.redisUrl
    ? joinCommunity({
        ...{ url: settings.redisUrl, apiBase, logger, now: runtime.now, sleep: runtime.sleep },
        run: startCommunityRun(port.store),
      })
    : undefined;
  // Every panel request goes through this stack's scheduler, within the panel's rate limit.
  const stack = createPanelStack({
    apiBase,
    token,
    timeoutMs: config.RequestTimeoutMs,
    fallbackLimit: budget,
    runtime,
    logger,
    ...(community ? { shared: community.budget } : {}),
  });
  const players = new PlayerRegistry();
  const playersOnline = announceShortRefreshInterval(config.RefreshIntervalMs, budget, logger);
  const dutyStates = new DutyStates();
  // The profiles: one block, fed by the panel, read by the duty below and pushed to the clients.
  const profiles = connectProfiles({
    panel: stack.client,
    runtime,
    ttlMs: config.RefreshIntervalMs,
    players,
    port,
    dutyState: (src) => dutyStates.get(src),
    logger,
    messages: config.Locale,
    community: community?.profiles,
  });
  const communityProfiles = community
    ? shareProfilesWithCommunity(community.profiles, profiles.profiles, logger)
    : undefined;
  // GlobalState['bridge:communityOnDutyCount']: the community's sum with Redis, this server's own count without.
  const communityCount = new CommunityOnDutyCount(
    (key, value) => port.setGlobalState(key, value),
    logger,
    community?.counts,
  );

  const outbox = new Outbox({
    store: port.store,
    panel: stack.client,
    availability: stack.breaker,
    logger,
    // A record's createdAt is kept in KVP across restarts: a moment in the world, not a point on this process's
    // monotonic clock.
    now: runtime.wallNow,
    sleep: runtime.sleep,
    random: runtime.random,
  });
  // Before anything can put a player on duty or reach the panel: the duties a crashed run left open become `off`
  // calls kept in the outbox, which the start-up sends behind that run's own kept calls once the probe has answered.
  const openDuties = new OpenDutyLedger(port.store);
  endDutiesLeftOpen(openDuties, outbox, logger);

  const duty = new DutyService({
    states: dutyStates,
    outbox,
    panel: stack.breaker,
    degradedMode: config.DegradedMode,
    logger,
    // Only for a duty's `since`, a moment the panel and the players read on the wall clock.
    now: runtime.wallNow,
    sleep: runtime.sleep,
    onDutyWaitMs: config.RequestTimeoutMs * 2,
    player: dutyPlayerOf(players),
    profile: (src, refetch) => profiles.forDuty(src, refetch),
    latestProfile: (src) => profiles.profiles.cached(src),
  });
  // Before any profile is asked for: the KVP copy loads what the last run kept.
  const profileSubscribers = profiles.connect({
    store: port.store,
    reconcile: (src, profile) => duty.submit({ kind: 'reconcile', src, profile }),
  });
  // Players on duty are polled: what the panel changes reaches their duty through the profile reconciliation.
  const polling = new OnDutyRevalidation({
    intervalMs: config.RefreshIntervalMs,
    sleep: runtime.sleep,
    freshForMs: (chatId) => profiles.profiles.freshForMs(chatId),
    refresh: (chatId, priority) => profiles.profiles.refreshInBackground(chatId, priority),
    logger,
  });
  const game = startGameSide({
    ...{ port, runtime, logger, config, token, players, duty, profiles, playersOnline },
    panelStatus: panelStatusOf(stack, outbox, apiBase, config.DegradedMode),
    communityCount: (slug) => communityCount.count(slug),
  });
  // Every duty change reaches each of these the same way, whatever caused it; an integration is one more here.
  // The principals and the counts come before the events: a listener of playerOnDuty already finds both.
  const effects = subscribeDutyEffects(duty.dutyChanges$, recordOpenDuties(openDuties, logger), [
    logDutyChanges(logger),
    pollOnDutyProfiles(polling, logger),
    ...(config.AcePermissions ? [grantDutyPrincipals(game.principals, logger)] : []),
    publishOnDutyCounts(
      {
        onDutyPlayers: () => duty.onDutyPlayers(),
        setGlobalState: (key, value) => port.setGlobalState(key, value),
        counted: (own) => communityCount.own(own),
      },
      logger,
    ),
    publishDutyStateBags(game.stateBags, logger),
    tellIntegrations(game.integrations, logger),
    emitServerDutyEvents(port, logger),
    emitClientDutyEvents(port, logger),
  ]);
  // The panel answering again refreshes the stale profiles.
  const recovery = stack.breaker.recovered$.subscribe(() => profiles.profiles.recover());

  return {
    logger,
    players,
    duty,
    profiles: profiles.profiles,
    ready: probeThenResume(stack.client, apiBase, outbox, logger),
    stop() {
      // Synchronous: the runtime is torn down right after, so nothing asynchronous would complete.
      for (const [src] of duty.onDutyPlayers()) duty.forceOffNow(src, 'resource_stop');
      game.stop();
      recovery.unsubscribe();
      profileSubscribers.unsubscribe();
      effects.unsubscribe();
      polling.stop();
      duty.stop();
      outbox.stop();
      stack.stop();
      communityProfiles?.unsubscribe();
      communityCount.stop();
      community?.stop();
    },
    footprint: () => ({ ...game.footprint(), 'outbox.lanes': outbox.openLanes, onDutyRevalidation: polling.size }),
  };
}
