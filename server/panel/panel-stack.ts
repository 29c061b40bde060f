import type { DutyAction, DutyOffBody, DutyOnBody } from '../../shared/contract/index.js';
import type { BridgeRuntime, Logger } from '../kernel/index.js';
import {
  createPanelTransport,
  type DutyRequestOptions,
  type PanelClient,
  type PanelTransport,
  type ProfileRequestOptions,
} from './panel-client.js';
import { CircuitBreaker, LatencyStats } from './panel-health.js';
import { RateBudget, type RateLimitPolicy } from './rate-budget.js';
import { RequestScheduler, type SharedBudget } from './request-scheduler.js';
import { PROBE_CHAT_ID } from './start-up.js';

export interface PanelStackOptions {
  apiBase: string;
  token: string;
  timeoutMs: number;
  /** config.lua's rate limit, used until the panel's headers tell the real one. */
  fallbackLimit: RateLimitPolicy;
  runtime: BridgeRuntime;
  logger: Logger;
  /** The community's budget, with BRIDGE_REDIS_URL. */
  shared?: SharedBudget;
}

/** Everything between the bridge and the panel: transport, budget, circuit breaker and the scheduler over them. */
export interface PanelStack {
  client: PanelClient;
  scheduler: RequestScheduler;
  budget: RateBudget;
  breaker: CircuitBreaker;
  latency: LatencyStats;
  stop(): void;
}

const describePolicy = ({ limit, windowMs }: RateLimitPolicy) => `${limit} requests per ${windowMs / 1000} s`;

export function createPanelStack(options: PanelStackOptions): PanelStack {
  const { runtime, logger } = options;
  const transport = createPanelTransport({
    apiBase: options.apiBase,
    token: options.token,
    timeoutMs: options.timeoutMs,
    now: runtime.now,
    wallNow: runtime.wallNow,
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
  });
  const budget = new RateBudget({
    now: runtime.now,
    fallback: options.fallbackLimit,
    onPolicyLearned: (learned, configured) => {
      if (learned.limit === configured.limit && learned.windowMs === configured.windowMs) return;
      logger.info(
        `the panel's rate-limit headers say ${describePolicy(learned)} (config.lua: ${describePolicy(configured)}); following the panel`,
      );
    },
  });
  const latency = new LatencyStats();
  // The breaker's probe goes through the scheduler like any request; the scheduler needs the breaker: the probe
  // reaches the scheduler through this late-bound reference.
  const scheduled: { scheduler?: RequestScheduler } = {};
  const breaker = new CircuitBreaker({
    now: runtime.now,
    sleep: runtime.sleep,
    random: runtime.random,
    logger,
    probe: () =>
      scheduled.scheduler?.submit({
        requestClass: 'duty',
        player: 'probe',
        probe: true,
        send: () => transport.getDepartments(PROBE_CHAT_ID),
      }) ?? Promise.resolve(),
  });
  const scheduler = new RequestScheduler({
    clock: runtime,
    budget,
    ...(options.shared ? { shared: options.shared } : {}),
    breaker,
    latency,
    logger,
  });
  scheduled.scheduler = scheduler;
  return {
    client: createScheduledPanelClient(transport, scheduler),
    scheduler,
    budget,
    breaker,
    latency,
    stop() {
      scheduler.stop();
      breaker.stop();
    },
  };
}

/**
 * The panel client the bridge uses: the same calls as the transport, each waiting its turn in the scheduler.
 * A player's profile is fetched once at a time however many callers ask (single flight), and a duty call waits in
 * the duty class, which goes first.
 */
export function createScheduledPanelClient(transport: PanelTransport, scheduler: RequestScheduler): PanelClient {
  const setDuty = (action: DutyAction, body: DutyOnBody | DutyOffBody, options: DutyRequestOptions = {}) =>
    scheduler.submit({
      requestClass: 'duty',
      player: body.chatId,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onSent ? { onSent: options.onSent } : {}),
      send: () => transport.setDuty(action, body),
    });
  return {
    getDepartments: (chatId: string, { priority = 'waiting', fresh = false }: ProfileRequestOptions = {}) =>
      scheduler.submit({
        requestClass: priority,
        player: chatId,
        singleFlight: `departments:${chatId}`,
        fresh,
        send: () => transport.getDepartments(chatId),
      }),
    setDuty: setDuty as PanelClient['setDuty'],
  };
}
