import { catchError, defer, EMPTY, filter, ignoreElements, map, merge, mergeMap, type Subscription } from 'rxjs';
import { validateConfig } from '../shared/config/index.js';
import {
  DUTY_STATE_BAG_KEY,
  type DutyOutcome,
  INTERNAL_EVENTS,
  type OffDutyReason,
  PUBLIC_EVENTS,
} from '../shared/events.js';
import { registerAdminCommand } from './commands/admin-command.js';
import { offDutyCommand } from './commands/offduty-command.js';
import { refreshCommand } from './commands/refresh-command.js';
import { statusCommand } from './commands/status-command.js';
import { readPanelSettings, TOKEN_CONVAR } from './config/panel-settings.js';
import { endDutiesLeftOpen } from './duty/crashed-run-recovery.js';
import { DutyService } from './duty/duty-service.js';
import { type DutyState, OFF_DUTY, snapshotOf } from './duty/duty-state.js';
import { OpenDutyLedger } from './duty/open-duty-ledger.js';
import { Outbox } from './duty/outbox.js';
import { createServerExports } from './exports/server-exports.js';
import { createIntegrations } from './integrations/create-integrations.js';
import { createLogger, type Logger } from './log/logger.js';
import { ClientEventLimits } from './net/client-event-limits.js';
import { DutyRequestArgsSchema, requestIdOf } from './net/client-requests.js';
import { createPanelStack, type PanelStack } from './panel/panel-stack.js';
import { probePanel } from './panel/probe.js';
import { PlayerRegistry } from './players/player-registry.js';
import { OnDutyRevalidation } from './profiles/on-duty-revalidation.js';
import { ProfileCache } from './profiles/profile-cache.js';
import { ProfileService, payloadOf } from './profiles/profile-service.js';
import { RevalidationAsks } from './profiles/revalidation-asks.js';
import { announceShortRefreshInterval } from './profiles/short-refresh-interval.js';
import { wireProfileSubscribers } from './profiles/wire-profile-subscribers.js';
import { TokenExposureCheck } from './security/token-exposure-check.js';
import type { BridgeRuntime, ServerPort } from './server-port.js';
import { publishDutyState } from './state/duty-state-bag.js';
import { StateBagGuard } from './state/state-bag-guard.js';

export interface BridgeServer {
  readonly logger: Logger;
  readonly players: PlayerRegistry;
  readonly duty: DutyService;
  readonly profiles: ProfileService;
  /** Resolves once the start-up probe has answered (immediately when not configured). */
  readonly ready: Promise<void>;
  /** The resource is stopping: everyone on duty goes off duty now; the panel calls wait in KVP if need be. */
  stop(): void;
  /** Entries held per player or chat account, by where they are held: all zero once everyone has left. */
  footprint(): Record<string, number>;
}

export function startBridgeServer(port: ServerPort, runtime: BridgeRuntime): BridgeServer {
  let token = '';
  const logger = createLogger({ print: (line) => port.print(line), secrets: () => [token] });

  const rawConfig = port.readConfig();
  if ('error' in rawConfig) logger.error(`config.lua could not be read (${rawConfig.error}); using the defaults`);
  const { config, problems } = validateConfig('value' in rawConfig ? rawConfig.value : undefined);
  logger.setLevel(config.LogLevel);
  for (const problem of problems) logger.warn(`config.lua: ${problem.message}`);

  const settings = readPanelSettings((name) => port.convar(name));
  // Redacted even when the settings are unusable: an owner may have pasted the token into the base URL as well.
  token = port.convar(TOKEN_CONVAR).trim();
  for (const warning of settings.warnings) logger.warn(warning);
  // Every panel request goes through this stack's scheduler, within the panel's rate limit.
  let stack: PanelStack | undefined;
  if (settings.ok) {
    token = settings.settings.token;
    stack = createPanelStack({
      apiBase: settings.settings.apiBase,
      token,
      timeoutMs: config.RequestTimeoutMs,
      fallbackLimit: { limit: config.PanelRateLimit.Requests, windowMs: config.PanelRateLimit.WindowMs },
      runtime,
      logger,
    });
  } else {
    for (const error of settings.errors) logger.error(error);
    logger.error('the bridge stays inactive until the convars above are set and the resource is restarted');
  }

  const panel = stack?.client;
  const players = new PlayerRegistry();
  const budget = { limit: config.PanelRateLimit.Requests, windowMs: config.PanelRateLimit.WindowMs };
  const playersOnline = stack ? announceShortRefreshInterval(config.RefreshIntervalMs, budget, logger) : () => {};
  const cache = panel
    ? new ProfileCache(panel, {
        ttlMs: config.RefreshIntervalMs,
        now: runtime.now,
        wallNow: runtime.wallNow,
      })
    : undefined;
  const profiles = new ProfileService(cache, players, logger, config.Locale);
  // Players on duty are polled: what the panel changes reaches their duty through the profile subscribers below.
  const onDutyRevalidation = new OnDutyRevalidation({
    intervalMs: config.RefreshIntervalMs,
    sleep: runtime.sleep,
    freshForMs: (chatId) => profiles.freshForMs(chatId),
    refresh: (chatId, priority) => profiles.refreshInBackground(chatId, priority),
    logger,
  });
  const outbox =
    panel && stack
      ? new Outbox({
          store: port.store,
          panel,
          availability: stack.breaker,
          logger,
          // A record's createdAt is kept in KVP across restarts: a moment in the world, not a point on this process's
          // monotonic clock.
          now: runtime.wallNow,
          sleep: runtime.sleep,
          random: runtime.random,
        })
      : undefined;
  // Before anything can put a player on duty or reach the panel: the duties a crashed run left open become `off`
  // calls kept in the outbox, which resume() sends behind that run's own kept calls once the probe has answered.
  // Without a panel the ledger waits for a run that has one.
  const openDuties = outbox ? new OpenDutyLedger(port.store) : undefined;
  if (openDuties && outbox) endDutiesLeftOpen(openDuties, outbox, logger);

  const sendDutyState = (src: number) => port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(duty.state(src)));

  const integrations = createIntegrations({
    config: config.Integrations,
    resources: port.resources,
    duty: {
      isOnDuty: (src) => duty.state(src).onDuty,
      takeOffDuty: (src, reason) => duty.submit({ kind: 'off', src, reason }),
    },
    logger,
  });
  // The bag is the bridge's word on duty; a client's write to its own bag is put back (see StateBagGuard).
  const stateBags = new StateBagGuard({
    keys: [DUTY_STATE_BAG_KEY],
    writes$: port.playerStateWrites([DUTY_STATE_BAG_KEY]),
    setPlayerState: (src, key, value) => port.setPlayerState(src, key, value),
    later: (work) => void runtime.sleep(0).then(work),
    logger,
  });
  // Written before anything else learns of the change: the record is what a crash leaves for the next start.
  const recordOpenDuty = (src: number, state: DutyState) => {
    if (!openDuties) return;
    const chatId = players.chatId(src);
    const { onDuty, departmentId, rankId, since } = state;
    if (onDuty && chatId !== undefined && departmentId !== null && rankId !== null && since !== null) {
      openDuties.opened({ chatId, departmentId, rankId, since, serverId: src });
    } else if (!onDuty && chatId !== undefined) openDuties.closed(chatId, src);
  };
  const publishDuty = (src: number, state: DutyState) =>
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, state);
  // Every duty change reaches the state bag and the integrations the same way, whatever caused it. Going off duty,
  // the integrations still learn which department ended.
  const dutyChanged = (src: number, state: DutyState, ended?: { departmentId: number; reason: OffDutyReason }) => {
    recordOpenDuty(src, state);
    onDutyRevalidation.dutyChanged(src, players.chatId(src), state.onDuty);
    publishDuty(src, state);
    integrations.dutyChanged({
      src,
      onDuty: state.onDuty,
      departmentId: ended?.departmentId ?? state.departmentId,
      departmentSlug: state.departmentSlug,
      rankId: state.rankId,
      ...(ended ? { reason: ended.reason } : {}),
    });
  };

  const duty = new DutyService({
    outbox: outbox as Outbox,
    ...(stack ? { panel: stack.breaker } : {}),
    degradedMode: config.DegradedMode,
    logger,
    // Only for a duty's `since`, a moment the panel and the players read on the wall clock.
    now: runtime.wallNow,
    sleep: runtime.sleep,
    onDutyWaitMs: config.RequestTimeoutMs * 2,
    player: (src) => {
      const session = players.get(src);
      return session?.chat.ok ? { chatId: session.chat.chatId, name: session.name } : undefined;
    },
    // A refetch also updates the player's menu, which showed the outdated departments. Otherwise whatever profile is
    // held is good enough: the panel checks the rank itself, and a refusal comes back here with `refetch`.
    profile: async (src, refetch) =>
      refetch ? (await profiles.serve(src, { force: true })).entry : await profiles.forDuty(src),
    latestProfile: (src) => profiles.cached(src),
    effects: {
      onDuty(src, state, department) {
        logger.info(`player ${src} is on duty in department ${department.slug} as rank ${department.rank.id}`);
        dutyChanged(src, state);
        port.emitLocal(PUBLIC_EVENTS.playerOnDuty, src, state.departmentId, state.rankId);
        port.emitClient(PUBLIC_EVENTS.deptData, src, department);
        sendDutyState(src);
      },
      offDuty(src, departmentId, reason) {
        logger.info(`player ${src} is off duty (${reason})`);
        dutyChanged(src, OFF_DUTY, { departmentId, reason });
        port.emitLocal(PUBLIC_EVENTS.playerOffDuty, src);
        if (reason === 'dropped') return;
        port.emitClient(PUBLIC_EVENTS.offDuty, src, { departmentId, reason });
        sendDutyState(src);
      },
      rankChanged(src, state, department) {
        dutyChanged(src, state);
        port.emitLocal(PUBLIC_EVENTS.playerRankChanged, src, state.departmentId, state.rankId);
        port.emitClient(PUBLIC_EVENTS.deptData, src, department);
        sendDutyState(src);
        port.emitClient(INTERNAL_EVENTS.notify, src, 'rank_changed', { rank: department.rank.name });
      },
    },
  });

  // The client push, the duty reconciliation and the KVP copy follow profiles.profiles$; the profiles the last run
  // kept are loaded here, before anything can ask for one.
  const profileSubscribers = wireProfileSubscribers({
    profiles,
    cache,
    store: port.store,
    isConnected: (src) => players.get(src) !== undefined,
    emitClient: (event, src, ...args) => port.emitClient(event, src, ...args),
    sendDutyState,
    reconcile: (src, profile) => duty.submit({ kind: 'reconcile', src, profile }),
    logger,
  });

  const ensureSession = (src: number) => {
    const known = players.get(src);
    if (known) return known;
    publishDuty(src, OFF_DUTY);
    return players.add(src, port.playerName(src), port.playerIdentifiers(src));
  };

  /** What /dutyrefresh does after its cooldown: fetch bypassing the cache, tell the client, check the duty. */
  const refreshProfile = (src: number) => profiles.serve(src, { force: true, checksDuty: true });

  const notConfigured = (): Promise<DutyOutcome> =>
    Promise.resolve({ ok: false, error: 'not_configured', message: 'the duty system is not configured' });

  const tokenExposure = new TokenExposureCheck({
    token,
    logger,
    challenge: (src, nonce) => port.emitClient(INTERNAL_EVENTS.tokenCheck, src, nonce),
  });

  const limits = new ClientEventLimits(runtime.now, logger);
  const revalidationAsks = new RevalidationAsks(config.RefreshIntervalMs, runtime.now);

  const answerDuty = (src: number, requestId: number, outcome: DutyOutcome) =>
    port.emitClient(INTERNAL_EVENTS.dutyResult, src, requestId, outcome);

  const handleDutyRequest = async (src: number, args: unknown[]) => {
    const parsed = DutyRequestArgsSchema.safeParse(args);
    const requestId = parsed.success ? parsed.data[0] : requestIdOf(args);
    if (!players.get(src)) return;
    if (!limits.admit('dutyRequest', src)) {
      if (requestId !== undefined) {
        answerDuty(src, requestId, { ok: false, error: 'too_many_requests', message: 'slow down' });
      }
      return;
    }
    if (!parsed.success) {
      logger.debug(`player ${src} sent a malformed duty request`);
      if (requestId !== undefined) {
        answerDuty(src, requestId, { ok: false, error: 'invalid_request', message: 'malformed duty request' });
      }
      return;
    }
    const [id, on, departmentId] = parsed.data;
    if (!outbox) {
      answerDuty(src, id, { ok: false, error: 'not_configured', message: 'the duty system is not configured' });
      return;
    }
    if (on && departmentId === null) {
      answerDuty(src, id, { ok: false, error: 'no_department_selected', message: 'select a department first' });
      return;
    }
    const outcome = on
      ? await duty.request({ kind: 'on', src, departmentId: departmentId as number })
      : await duty.request({ kind: 'off', src, reason: 'request' });
    answerDuty(src, id, outcome);
  };

  const handleRefresh = async (src: number) => {
    const session = players.get(src);
    if (!session) return;
    const now = runtime.now();
    const waitMs = session.lastRefreshAt === undefined ? 0 : session.lastRefreshAt + config.RefreshCooldownMs - now;
    if (waitMs > 0 || !limits.admit('refresh', src)) {
      port.emitClient(INTERNAL_EVENTS.notify, src, 'refresh_cooldown', {
        seconds: Math.max(1, Math.ceil(waitMs / 1000)),
      });
      return;
    }
    session.lastRefreshAt = now;
    const view = await refreshProfile(src);
    port.emitClient(INTERNAL_EVENTS.notify, src, view.payload.ok && !view.stale ? 'refreshed' : 'refresh_failed', {});
  };

  // Each input is its own stream; a failure in one handler is logged and never ends the stream.
  const guard =
    <T>(what: string, work: (value: T) => Promise<unknown> | undefined) =>
    (value: T) =>
      defer(async () => {
        await work(value);
      }).pipe(
        catchError((error: unknown) => {
          logger.error(`${what} failed: ${String(error)}`);
          return EMPTY;
        }),
        ignoreElements(),
      );

  const subscription: Subscription = merge(
    port.joins$.pipe(
      mergeMap(
        guard('join', async (src: number) => {
          ensureSession(src);
          playersOnline(players.size);
          await profiles.view(src, { priority: 'join' });
        }),
      ),
    ),
    port.clientReady$.pipe(
      filter(({ src }) => limits.admit('ready', src)),
      mergeMap(
        guard('profile', async ({ src }) => {
          ensureSession(src);
          tokenExposure.challenge(src);
          await profiles.serve(src);
        }),
      ),
    ),
    port.dutyRequests$.pipe(mergeMap(guard('duty request', ({ src, args }) => handleDutyRequest(src, args)))),
    // The cooldown, set before the request goes out, keeps one player's refreshes apart; players never wait for each
    // other's.
    port.refreshRequests$.pipe(
      map(({ src }) => src),
      mergeMap(guard('refresh', handleRefresh)),
    ),
    // Stale-while-revalidate: the client already shows its profile; the new one arrives through profiles.profiles$.
    port.revalidateRequests$.pipe(
      filter(({ src }) => players.get(src) !== undefined && limits.admit('revalidate', src)),
      filter(({ src }) => revalidationAsks.admit(src)),
      mergeMap(guard('profile revalidation', async ({ src }) => profiles.revalidate(src))),
    ),
    port.tokenProofs$.pipe(
      filter(({ src }) => limits.admit('tokenProof', src)),
      mergeMap(guard('token check', async ({ src, args }) => tokenExposure.answer(src, args))),
    ),
    port.drops$.pipe(
      mergeMap(
        guard('drop', async ({ src }) => {
          await duty.leave(src);
          integrations.playerDropped(src);
          stateBags.forget(src);
          players.remove(src);
          duty.forget(src);
          limits.forget(src);
          revalidationAsks.forget(src);
          tokenExposure.forget(src);
        }),
      ),
    ),
    stack ? stack.breaker.recovered$.pipe(map(() => profiles.recover())) : EMPTY,
  ).subscribe();

  for (const src of port.connectedPlayers()) ensureSession(src);
  // A restart with players online: they count for the short-interval warning as joins would.
  playersOnline(players.size);

  const serverExports = createServerExports({
    dutyState: (src) => duty.state(src),
    onDutyPlayers: () => duty.onDutyPlayers(),
    isKnownPlayer: (src) => players.get(src) !== undefined,
    cachedProfile: (src) => {
      const entry = profiles.cached(src);
      return entry ? payloadOf(entry, config.Locale) : undefined;
    },
    setDuty: (src, on, departmentId) =>
      outbox
        ? duty.request(on ? { kind: 'on', src, departmentId } : { kind: 'off', src, reason: 'admin' })
        : notConfigured(),
    takeOffDuty: (src) => (outbox ? duty.request({ kind: 'off', src, reason: 'admin' }) : notConfigured()),
    refresh: async (src) => (await refreshProfile(src)).payload,
  });
  for (const [name, fn] of Object.entries(serverExports)) port.registerExport(name, fn);

  registerAdminCommand(
    port,
    [
      statusCommand(() => ({
        now: runtime.now(),
        wallNow: runtime.wallNow(),
        panel:
          stack && outbox && settings.ok
            ? {
                apiBase: settings.settings.apiBase,
                circuit: stack.breaker.snapshot(),
                latency: stack.latency.snapshot(),
                budget: stack.budget.snapshot(),
                scheduler: stack.scheduler.stats(),
                outbox: outbox.stats(),
                degradedMode: config.DegradedMode,
              }
            : undefined,
        cachedProfiles: cache?.size ?? 0,
        playersOnline: players.size,
        playersOnDuty: duty.onDutyPlayers().length,
      })),
      refreshCommand({
        connectedPlayers: () => players.all().map((session) => session.src),
        isConnected: (src) => players.get(src) !== undefined,
        refresh: serverExports.RefreshPlayer,
      }),
      offDutyCommand({
        isConnected: (src) => players.get(src) !== undefined,
        takeOffDuty: (src) => serverExports.SetPlayerDuty(src, false),
      }),
    ],
    { redact: (text) => logger.redact(text), onError: (message) => logger.error(message) },
  );

  const ready = (async () => {
    if (!panel || !settings.ok) return;
    // The probe leaves first, alone: its answer tells the budget the panel's real limit before the kept calls spend it.
    const probed = probePanel(panel, settings.settings.apiBase, logger);
    const resumed = outbox?.resume() ?? 0;
    if (resumed > 0) logger.info(`sending ${resumed} duty change(s) left from the last run`);
    await probed;
  })().catch((error: unknown) => logger.error(`start-up failed: ${String(error)}`));

  return {
    logger,
    players,
    duty,
    profiles,
    ready,
    stop() {
      for (const [src] of duty.onDutyPlayers()) duty.forceOffNow(src, 'resource_stop');
      subscription.unsubscribe();
      profileSubscribers.unsubscribe();
      onDutyRevalidation.stop();
      stateBags.stop();
      duty.stop();
      outbox?.stop();
      stack?.stop();
    },
    footprint: () => ({
      players: players.size,
      ...Object.fromEntries(Object.entries(duty.footprint()).map(([name, size]) => [`duty.${name}`, size])),
      'outbox.lanes': outbox?.openLanes ?? 0,
      clientEventLimits: limits.size,
      revalidationAsks: revalidationAsks.size,
      stateBagGuard: stateBags.size,
      tokenChallenges: tokenExposure.size,
      onDutyRevalidation: onDutyRevalidation.size,
    }),
  };
}
