import { STARTUP_CHECK_CHAT_ID } from '../../shared/contract/paths.js';
import type { Logger } from '../log/logger.js';
import type { PanelClient } from './panel-client.js';
import { reportTokenRefused } from './token-refused.js';

// A well-formed id no user has: the answer tells whether the panel is up and takes the token, and costs one request.
export const PROBE_CHAT_ID = STARTUP_CHECK_CHAT_ID;

export type ProbeResult = 'ok' | 'unauthorized' | 'unreachable';

/** One request at start that tells the owner whether the panel answers and accepts the token. */
export async function probePanel(panel: PanelClient, apiBase: string, logger: Logger): Promise<ProbeResult> {
  const result = await panel.getDepartments(PROBE_CHAT_ID);
  if (result.ok || result.failure.kind === 'not_found') {
    logger.info(`the panel at ${apiBase} answers and accepts the API token`);
    return 'ok';
  }
  if (result.failure.kind === 'unauthorized') {
    reportTokenRefused(logger, apiBase);
    return 'unauthorized';
  }
  logger.warn(`the panel at ${apiBase} did not answer properly (${result.failure.message}); the bridge keeps trying`);
  return 'unreachable';
}
