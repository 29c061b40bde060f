import type { Logger } from '../kernel/index.js';
import type { PanelClient } from './panel-client.js';
import { probePanel } from './probe.js';

/**
 * The start-up probe, then the duty calls kept from the last run. The probe leaves first, alone: its answer tells
 * the budget the panel's real limit before the kept calls spend it. Resolves once the probe has answered.
 */
export async function probeThenResume(
  panel: PanelClient,
  apiBase: string,
  /** The duty outbox: sends the calls kept from the last run, and says how many. */
  outbox: { resume(): number },
  logger: Logger,
): Promise<void> {
  try {
    const probed = probePanel(panel, apiBase, logger);
    const resumed = outbox.resume();
    if (resumed > 0) logger.info(`sending ${resumed} duty change(s) left from the last run`);
    await probed;
  } catch (error) {
    logger.error(`start-up failed: ${String(error)}`);
  }
}
