import type { DegradedMode } from '../../../shared/config/index.js';
import type { Outbox } from '../../duty/index.js';
import type { StatusSnapshot } from '../../metrics/index.js';
import type { PanelStack } from '../../panel/index.js';

/** The panel's part of `bridge status`, read when the command runs. */
export const panelStatusOf =
  (stack: PanelStack, outbox: Pick<Outbox, 'stats'>, apiBase: string, degradedMode: DegradedMode) =>
  (): NonNullable<StatusSnapshot['panel']> => ({
    apiBase,
    circuit: stack.breaker.snapshot(),
    latency: stack.latency.snapshot(),
    budget: stack.budget.snapshot(),
    scheduler: stack.scheduler.stats(),
    outbox: outbox.stats(),
    degradedMode,
  });
