import { DEFAULT_REFRESH_INTERVAL_MS, REFRESH_INTERVAL_RANGE_MS } from '../shared/config/refresh-interval.js';
import { type Messages, messagesFrom, NOTIFICATION_STYLES, type NotificationStyle } from '../shared/locale.js';

/** What the client half takes from config.lua. */
export interface ClientSettings {
  messages: Messages;
  notifications: NotificationStyle;
  /** How old the client's profile may get before GetDutyOptions() asks the server to fetch it again. */
  refreshIntervalMs: number;
}

// The server's bounds: a value it refuses leaves both sides on the default. Were they ever to differ, the server's
// own once-per-interval gate is what spends the panel's budget: a client asking more often is only ignored.
const isInterval = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isInteger(value) &&
  value >= REFRESH_INTERVAL_RANGE_MS.min &&
  value <= REFRESH_INTERVAL_RANGE_MS.max;

const isStyle = (value: unknown): value is NotificationStyle =>
  (NOTIFICATION_STYLES as readonly unknown[]).includes(value);

/**
 * Reads the owner's config.lua table leniently: the server validates the same table and names every problem in its
 * console, so here a value it would refuse just keeps its default. Plain checks, so zod stays out of the client bundle.
 */
export function clientSettings(config: unknown): ClientSettings {
  const table = config !== null && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  return {
    messages: messagesFrom(table.Locale),
    notifications: isStyle(table.Notifications) ? table.Notifications : 'auto',
    refreshIntervalMs: isInterval(table.RefreshIntervalMs) ? table.RefreshIntervalMs : DEFAULT_REFRESH_INTERVAL_MS,
  };
}
