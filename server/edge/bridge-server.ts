import { resolve } from 'node:path';
import { INTERNAL_EVENTS } from '../../shared/events.js';
import {
  CommunityOnDutyCount,
  HeldForRedis,
  joinCommunity,
  LIVENESS_CONVAR,
  livenessMsOf,
  recordDutyOwners,
  startCommunityRun,
} from '../community/index.js';
import type { Duty } from '../duty/index.js';
import {
  closeEndedShifts,
  DutyService,
  DutyStore,
  emitClientDutyEvents,
  emitServerDutyEvents,
  endDutiesLeftOpen,
  logDutyChanges,
  NOT_CONFIGURED_DUTY,
  OFF_DUTY,
  OpenDutyLedger,
  Outbox,
  pollOnDutyProfiles,
  publishOnDutyCounts,
  recordOpenDuties,
  snapshotOf,
  subscribeDutyEffects,
  tellIntegrations,
} from '../duty/index.js';
import type { BridgeRuntime, BridgeSettings, Logger, ServerPort } from '../kernel/index.js';
import { PlayerRegistry, readBridgeSettings } from '../kernel/index.js';
import { createPanelStack, probeThenResume } from '../panel/index.js';
import {
  announceShortRefreshInterval,
  OnDutyRevalidation,
  ProfileCache,
  Profiles,
  reconcileDuties,
  shareProfilesWithCommunity,
  tellLeftOutDepartment,
  wireProfileSubscribers,
} from '../profiles/index.js';
import { grantDutyPrincipals } from './ace-principals.js';
import { communityStatusOf, panelStatusOf } from './commands/status.js';
import { publishDutyStateBags } from './duty-state-bag.js';
import { dutyPlayerOf, startGameSide } from './game-side.js';
import { followTxAdmin } from './txadmin.js';

/** What `startBridgeServer` hands back, configured or inert: the parts the runtime adapter and the tests reach. */
export interface BridgeServer {
  readonly logger: Logger;
  readonly players: PlayerRegistry;
  readonly duty: Duty;
  readonly profiles: Profiles;
  /** Resolves once the start-up probe has answered (immediately when not configured). */
  readonly ready: Promise<void>;
  /** The resource is stopping: everyone on duty goes off duty now; the panel calls wait in KVP if need be. */
  stop(): void;
  /** Entries held per player or chat account, by where they are held: all zero once everyone has left. */
  footprint(): Record<string, number>;
}

/**
 * The composition root: builds the bridge's parts and wires them (without usable convars, the inert bridge below).
 * What each part does lives in its own module.
 */
export function startBridgeServer(port: ServerPort, runtime: BridgeRuntime): BridgeServer {
  const settings = readBridgeSettings(port);
  if (!settings.panel) return startInertBridge(port, runtime, settings);
  const { logger, config, token } = settings;
  const { apiBase } = settings.panel;
  const budget = { limit: config.PanelRateLimit.Requests, windowMs: config.PanelRateLimit.WindowMs };
  // With BRIDGE_REDIS_URL, the servers naming the same Redis and panel are one community (server/community/).
  const liveness = livenessMsOf(port.convar(LIVENESS_CONVAR));
  if (settings.redisUrl && liveness.warning) logger.warn(liveness.warning);
  const community = settings.redisUrl
    ? joinCommunity(
        {
          url: settings.redisUrl,
          ...(settings.redisCaFile ? { caFile: resolve(port.resourcePath, settings.redisCaFile) } : {}),
          apiBase,
          logger,
          now: runtime.now,
          sleep: runtime.sleep,
          run: startCommunityRun(port.store),
          livenessMs: liveness.ms,
        },
        runtime.load,
      )
    : undefined;
  // What waits for Redis to answer, for `bridge status`: a part that holds a call until Redis confirms registers it.
  const heldForRedis = new HeldForRedis(runtime.now);
  // Who owns each account's duty across the community: this server's shifts in Redis (issue 25 item 3).
  const owners = community?.dutyOwners(port.store);
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
  const dutyStore = new DutyStore();
  // The profiles: fed by the panel, read by the duty below and pushed to the clients.
  const profileCache = new ProfileCache(stack.client, {
    ttlMs: config.RefreshIntervalMs,
    now: runtime.now,
    wallNow: runtime.wallNow,
    onLeftOut: tellLeftOutDepartment(logger),
    community: community?.profiles,
  });
  const profiles = new Profiles(profileCache, players, logger, config.Locale);
  const communityProfiles = community ? shareProfilesWithCommunity(community.profiles, profiles, logger) : undefined;
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
    // In a community every call that could undo a duty is confirmed against its claim in Redis first.
    ...(owners ? { fence: owners.fenceGate({ heldForRedis, requestTimeoutMs: config.RequestTimeoutMs }) } : {}),
  });
  // Before anything can put a player on duty or reach the panel: the duties a crashed run left open become `off`
  // calls kept in the outbox, which the start-up sends behind that run's own kept calls once the probe has answered.
  const openDuties = new OpenDutyLedger(port.store);
  endDutiesLeftOpen(openDuties, outbox, logger, owners !== undefined);

  const duty = new DutyService({
    store: dutyStore,
    outbox,
    panel: stack.breaker,
    degradedMode: config.DegradedMode,
    logger,
    // Only for a duty's `since`, a moment the panel and the players read on the wall clock.
    now: runtime.wallNow,
    sleep: runtime.sleep,
    onDutyWaitMs: config.RequestTimeoutMs * 2,
    resumeWindowMs: config.ResumeWindowMs,
    player: dutyPlayerOf(players),
    profile: (src, refetch) => profiles.forDuty(src, refetch),
    latestProfile: (src) => profiles.cached(src),
  });
  // Before any profile is asked for: the KVP copy loads what the last run kept. The duty is reconciled with every
  // profile checked against it, after the push: a client hears of a profile before the duty changes it brings.
  const profileSubscribers = wireProfileSubscribers({
    profiles,
    cache: profileCache,
    store: port.store,
    isConnected: (src) => players.get(src) !== undefined,
    emitClient: (event, src, ...args) => port.emitClient(event, src, ...args),
    sendDutyState: (src) => port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(dutyStore.state(src))),
    logger,
  });
  profileSubscribers.add(
    reconcileDuties(profiles.profiles$, {
      reconcile: (src, profile) => duty.submit({ kind: 'reconcile', src, profile }),
      logger,
    }),
  );
  // Players on duty are polled: what the panel changes reaches their duty through the profile reconciliation.
  const polling = new OnDutyRevalidation({
    intervalMs: config.RefreshIntervalMs,
    now: runtime.now,
    sleep: runtime.sleep,
    freshForMs: (chatId) => profiles.freshForMs(chatId),
    refresh: (chatId, priority) => profiles.refreshInBackground(chatId, priority),
    logger,
  });
  // In a community, the duty's side of it (dist/redis.cjs).
  const sharedDuty =
    owners && community?.duty(owners, { store: dutyStore, duty, outbox, heldEnded$: duty.heldEnded$, players });
  const game = startGameSide({
    ...{ port, runtime, logger, config, token, players, duty, profiles, playersOnline },
    panelStatus: panelStatusOf(stack, outbox, apiBase, config.DegradedMode),
    communityStatus: communityStatusOf(settings.redisUrl, community, heldForRedis, runtime.now),
    communityCount: (slug) => communityCount.count(slug),
    ...(sharedDuty ? { releaseHeld: () => outbox.releaseHeld(), takeHeldElsewhere: sharedDuty.takeHeldElsewhere } : {}),
  });
  // Every duty change reaches each of these the same way, whatever caused it; an integration is one more here.
  // The principals and the counts come before the events: a listener of playerOnDuty already finds both.
  const effects = subscribeDutyEffects(duty.dutyChanges$, recordOpenDuties(openDuties, logger), [
    logDutyChanges(logger),
    ...(owners ? [recordDutyOwners(owners, logger, config.ResumeWindowMs)] : []),
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
  const endedShifts = closeEndedShifts(duty.heldEnded$, openDuties);
  if (sharedDuty) endedShifts.add(sharedDuty.follow());
  const txAdmin = followTxAdmin({
    events$: port.txAdminEvents$,
    duty,
    port,
    restartNotice: config.RestartNotice,
    logger,
  });
  // The panel answering again refreshes the stale profiles.
  const recovery = stack.breaker.recovered$.subscribe(() => profiles.recover());

  return {
    logger,
    players,
    duty,
    profiles,
    ready: probeThenResume(stack.client, apiBase, outbox, logger),
    stop() {
      // Synchronous: the runtime is torn down right after, so nothing asynchronous would complete.
      duty.endAll('resource_stop');
      game.stop();
      txAdmin.unsubscribe();
      endedShifts.unsubscribe();
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
