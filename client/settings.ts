import { type Messages, messagesFrom, NOTIFICATION_STYLES, type NotificationStyle } from '../shared/locale.js';

/** What the client half takes from config.lua. */
export interface ClientSettings {
  messages: Messages;
  notifications: NotificationStyle;
}

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
  };
}
