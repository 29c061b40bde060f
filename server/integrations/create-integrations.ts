import type { BridgeConfig } from '../../shared/config/schema.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import type { DutyChange, DutyControl, Integration, ResourcePort } from './integration.js';
import { createJobIntegration } from './jobs/job-integration.js';
import { createRcorePoliceIntegration } from './rcore-police.js';

export interface IntegrationsOptions {
  /** `config.Integrations` of the validated config. */
  config: BridgeConfig['Integrations'];
  resources: ResourcePort;
  duty: DutyControl;
  logger: Logger;
  /** Resource KVP, where the job integration keeps what it gave until the player has their own back. */
  store: KeyValueStore;
  wallNow: () => number;
  /** The players online when the bridge starts. */
  connectedPlayers: () => readonly number[];
}

export interface Integrations {
  /** The integrations config.lua turned on, in the order they hear of going on duty. */
  readonly integrations: readonly Integration[];
  /** Every duty change the bridge made: on, off (any reason, drops and the bridge's own stop included), new rank. */
  dutyChanged(change: DutyChange): void;
  /** A player left; called after the drop's own off-duty change (if they were on duty), for every dropped player. */
  playerDropped(src: number): void;
  /** What each integration holds per player, as `<integration>.<where>`. */
  footprint(): Record<string, number>;
}

/**
 * The integrations config.lua turned on. Going on duty they hear of it in order (the job first, so rcore_police
 * sees the department's job when its duty starts), going off duty in reverse (rcore_police still sees it when its
 * duty ends). None of them ever throws into the bridge.
 */
export function createIntegrations(options: IntegrationsOptions): Integrations {
  const { config, resources, duty, logger } = options;
  const applying = new Set<number>();
  const integrations: Integration[] = [];
  if (config.JobFramework !== false) {
    integrations.push(
      createJobIntegration({
        framework: config.JobFramework,
        fallbackJob: config.FallbackJob,
        fallbackGrade: config.FallbackGrade,
        departmentJobs: config.DepartmentJobs,
        resources,
        logger,
        store: options.store,
        wallNow: options.wallNow,
        connectedPlayers: options.connectedPlayers,
      }),
    );
  }
  if (config.RcorePolice) {
    integrations.push(
      createRcorePoliceIntegration({ resources, duty, logger, isApplying: (src) => applying.has(src) }),
    );
  }

  const each = (list: readonly Integration[], what: string, run: (integration: Integration) => void) => {
    for (const integration of list) {
      try {
        run(integration);
      } catch (error) {
        logger.once(
          `integrations:${integration.name}:${what}`,
          'warn',
          `the ${integration.name} integration failed on ${what}: ${errorText(error)}`,
        );
      }
    }
  };

  return {
    integrations,
    dutyChanged(change) {
      const order = change.onDuty ? integrations : [...integrations].reverse();
      const nested = applying.has(change.src);
      applying.add(change.src);
      try {
        each(order, 'a duty change', (integration) => integration.dutyChanged(change));
        each(order, 'a duty change', (integration) => integration.settled?.(change));
      } finally {
        if (!nested) applying.delete(change.src);
      }
    },
    playerDropped(src) {
      each(integrations, 'a drop', (integration) => integration.playerDropped?.(src));
    },
    footprint: () =>
      Object.fromEntries(
        integrations.flatMap((integration) =>
          Object.entries(integration.footprint?.() ?? {}).map(([where, size]) => [
            `${integration.name}.${where}`,
            size,
          ]),
        ),
      ),
  };
}
