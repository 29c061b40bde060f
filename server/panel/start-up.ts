// The start-up check: one probe tells the owner what answers at BRIDGE_API_BASE, then the kept duty calls go.
import { STARTUP_CHECK_CHAT_ID } from '../../shared/contract/paths.js';
import type { Logger } from '../kernel/index.js';
import type { PanelClient } from './panel-client.js';
import { saysAccountUnknown } from './panel-result.js';

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

// A well-formed id no user has: the answer tells whether the panel is up and takes the token, and costs one request.
export const PROBE_CHAT_ID = STARTUP_CHECK_CHAT_ID;

export type ProbeResult = 'ok' | 'unauthorized' | 'not_the_panel' | 'unreachable';

/**
 * One request at start that tells the owner what answered: the panel, accepting the token (its own 404 for the
 * unknown id, or a profile), or something else at that address, said as it was seen.
 */
export async function probePanel(panel: PanelClient, apiBase: string, logger: Logger): Promise<ProbeResult> {
  const result = await panel.getDepartments(PROBE_CHAT_ID);
  if (result.ok || saysAccountUnknown(result.failure)) {
    logger.info(`the panel at ${apiBase} answers and accepts the API token`);
    return 'ok';
  }
  const { failure } = result;
  if (failure.kind === 'unauthorized') {
    reportTokenRefused(logger, apiBase);
    return 'unauthorized';
  }
  // A 5xx page is a panel down behind its proxy; any other page is the wrong address, or no panel at it.
  const elsewhere = failure.notThePanels && (failure.kind === 'unreadable' || failure.kind === 'invalid_response');
  if (elsewhere || failure.code === 'not_found') {
    const seen = elsewhere ? failure.message : `the panel's own 404 for a path it has no route for`;
    logger.warn(
      `the start-up check at ${apiBase} got ${seen}: check BRIDGE_API_BASE (the panel's address, without /api/leo, ` +
        'through any proxy in front of it); the bridge keeps trying',
    );
    return 'not_the_panel';
  }
  logger.warn(`the panel at ${apiBase} did not answer properly (${failure.message}); the bridge keeps trying`);
  return 'unreachable';
}

/** Told once, by whichever request meets it first (the start-up probe, a profile, a duty call). */
export function reportTokenRefused(logger: Logger, apiBase?: string): void {
  const panel = apiBase === undefined ? 'the panel' : `the panel at ${apiBase}`;
  logger.once(
    'unauthorized',
    'error',
    `${panel} refused the API token (401): BRIDGE_LEO_API_TOKEN must equal LEO_API_TOKEN in the panel environment`,
  );
}
