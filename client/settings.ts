import {
  DEFAULT_DUTY_COMMAND_NAME,
  DUTY_MENU_STYLES,
  type DutyMenuStyle,
  dutyCommandNameProblem,
} from '../shared/config/duty-command.js';
import { DEFAULT_REFRESH_INTERVAL_MS, REFRESH_INTERVAL_RANGE_MS } from '../shared/config/refresh-interval.js';
import { type Messages, messagesFrom, NOTIFICATION_STYLES, type NotificationStyle } from '../shared/locale.js';

/** What the client half takes from config.lua. */
export interface ClientSettings {
  messages: Messages;
  notifications: NotificationStyle;
  /** How old the client's profile may get before GetDutyOptions() asks the server to fetch it again. */
  refreshIntervalMs: number;
  /** Config.DutyCommand: the players' duty command, when the owner turned it on. */
  dutyCommand: { enabled: boolean; name: string; menu: DutyMenuStyle };
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

const isMenuStyle = (value: unknown): value is DutyMenuStyle =>
  (DUTY_MENU_STYLES as readonly unknown[]).includes(value);

// Lua's msgpack encoder sends an empty table as an array, so `{}` in config.lua arrives as [].
const tableOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function dutyCommandOf(value: unknown): ClientSettings['dutyCommand'] {
  const { Enabled, Name, Menu } = tableOf(value);
  return {
    enabled: Enabled === true,
    name: dutyCommandNameProblem(Name) === undefined ? (Name as string) : DEFAULT_DUTY_COMMAND_NAME,
    menu: isMenuStyle(Menu) ? Menu : 'auto',
  };
}

/**
 * Reads the owner's config.lua table leniently: the server validates the same table and names every problem in its
 * console, so here a value it would refuse just keeps its default. Plain checks, so zod stays out of the client bundle.
 */
export function clientSettings(config: unknown): ClientSettings {
  const table = tableOf(config);
  return {
    messages: messagesFrom(table.Locale),
    notifications: isStyle(table.Notifications) ? table.Notifications : 'auto',
    refreshIntervalMs: isInterval(table.RefreshIntervalMs) ? table.RefreshIntervalMs : DEFAULT_REFRESH_INTERVAL_MS,
    dutyCommand: dutyCommandOf(table.DutyCommand),
  };
}
