import { type Messages, messagesFrom, NOTIFICATION_STYLES, type NotificationStyle } from '../shared/locale.js';

/** What the client half takes from config.lua. */
export interface ClientSettings {
  messages: Messages;
  notifications: NotificationStyle;
  /** How old the client's profile may get before GetDutyOptions() asks the server to fetch it again. */
  refreshIntervalMs: number;
}

const DEFAULT_REFRESH_INTERVAL_MS = 300_000;

// Wider than the server's bounds on purpose: the server's own once-per-interval gate is what spends the panel's
// budget, so a client that asks more often than the server's interval is only ignored, never a cost.
const isInterval = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1_000 && value <= 86_400_000;

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
