import type { Logger } from '../kernel/index.js';

/** Below this, `RefreshIntervalMs` is a tester's setting, and the bridge says what it costs. */
export const SHORT_REFRESH_INTERVAL_MS = 60_000;
// The second line comes once the players online could spend this share of the panel's budget on refreshes alone:
// past it, duty calls start to wait behind profiles.
const BUDGET_SHARE = 0.5;

export interface PanelBudget {
  limit: number;
  windowMs: number;
}

const MINUTE_MS = 60_000;
const rounded = (value: number) => String(Math.round(value * 10) / 10);

/**
 * A short interval costs panel requests: every player online may revalidate once per interval (in the background
 * while on duty, when a duty menu asks otherwise). Logs that cost once at start, before anyone is online, per
 * player; then once more, the first time the players online could spend more than half the budget. Returns what
 * to call with the number of players online after each join (nothing to do for an interval of a minute or more).
 */
export function announceShortRefreshInterval(
  intervalMs: number,
  budget: PanelBudget,
  logger: Logger,
): (playersOnline: number) => void {
  if (intervalMs >= SHORT_REFRESH_INTERVAL_MS) return () => {};
  const perPlayer = MINUTE_MS / intervalMs;
  const budgetPerMinute = (budget.limit * MINUTE_MS) / budget.windowMs;
  const crowd = Math.floor((budgetPerMinute * BUDGET_SHARE) / perPlayer) + 1;
  logger.warn(
    `RefreshIntervalMs = ${intervalMs} is below ${SHORT_REFRESH_INTERVAL_MS}, a setting for testing: each player ` +
      `online can cost up to ${rounded(perPlayer)} profile request(s) a minute (on duty in the background, off duty ` +
      `when a duty menu asks) of the panel's ${rounded(budgetPerMinute)} a minute; ${crowd} players online could ` +
      'spend more than half of it',
  );
  let told = false;
  return (playersOnline) => {
    if (told || playersOnline < crowd) return;
    told = true;
    logger.warn(
      `${playersOnline} players online at RefreshIntervalMs = ${intervalMs} can cost up to ` +
        `${rounded(playersOnline * perPlayer)} profile requests a minute, more than half of the panel's ` +
        `${rounded(budgetPerMinute)}; duty calls go first and refreshes wait. Raise RefreshIntervalMs to ` +
        `${SHORT_REFRESH_INTERVAL_MS} or more outside testing`,
    );
  };
}
