import type { Logger } from '../kernel/index.js';

/** Told once, by whichever request meets it first (the start-up probe, a profile, a duty call). */
export function reportTokenRefused(logger: Logger, apiBase?: string): void {
  const panel = apiBase === undefined ? 'the panel' : `the panel at ${apiBase}`;
  logger.once(
    'unauthorized',
    'error',
    `${panel} refused the API token (401): BRIDGE_LEO_API_TOKEN must equal LEO_API_TOKEN in the panel environment`,
  );
}
