/**
 * Every message a player can see, in English. `{name}` placeholders are filled from the message's parameters.
 * Owners replace any of them with `Config.Locale` in config.lua; the client reads the result (see messagesFrom).
 */
export const ENGLISH = {
  notification_title: 'Duty',
  on_duty: 'You are now on duty: {department}, {rank}.',
  off_duty: 'You are now off duty.',
  off_duty_department_removed: 'You were taken off duty: you are no longer a member of {department}.',
  off_duty_account_removed: 'You were taken off duty: the panel no longer knows your chat account.',
  off_duty_admin: 'An administrator took you off duty.',
  off_duty_replaced: 'You are now off duty: your chat account went on duty in another game session.',
  off_duty_superseded: 'You are now off duty: your chat account is on duty in another game session.',
  off_duty_server_shutdown: 'You are now off duty: the server is shutting down.',
  restart_notice: 'The server restarts in {minutes} min; your shift ends then.',
  already_on_duty: 'You are already on duty in {department}.',
  already_off_duty: 'You are not on duty.',
  department_fallback: 'department {id}',
  rank_changed: 'Your rank is now {rank}.',
  refreshed: 'Your departments and ranks were refreshed.',
  refresh_failed: 'Your departments could not be refreshed right now; try again in a moment.',
  refresh_cooldown: 'Please wait {seconds} s before refreshing again.',
  refreshing: 'Refreshing your departments...',
  no_departments:
    'You are not a member of any department. If that is wrong, run /syncme in the chat or press "Refresh roles" in the panel, then /dutyrefresh.',
  no_department_selected: 'Select a department before going on duty.',
  invalid_status: 'UpdatePlayerDuty needs true (on duty) or false (off duty).',
  not_member: 'You are not a member of that department. If this is wrong, run /dutyrefresh.',
  profile_unavailable: 'Your departments are not loaded yet; try again in a moment or run /dutyrefresh.',
  panel_refused: 'The panel refused the duty change: {detail}. Run /dutyrefresh if your roles changed.',
  panel_unavailable: 'The panel did not answer; try again in a moment.',
  too_many_requests: 'Too many duty requests; slow down.',
  invalid_request: 'The duty request was not valid.',
  not_configured: 'The duty system is not configured on this server. Tell an administrator.',
  no_identifier: 'No chat account is linked to your game. Link your chat account in FiveM and reconnect.',
  malformed_identifier: 'Your chat account identifier is not valid. Re-link your chat account and reconnect.',
  not_registered:
    'The panel does not know your chat account yet: run /syncme in the chat or press "Refresh roles" in the panel, then /dutyrefresh.',
  unauthorized: 'The duty system cannot reach the panel right now. Tell an administrator.',
  panel_unavailable_profile: 'Your departments could not be loaded right now; run /dutyrefresh in a moment.',
  loading: 'Your departments are still loading.',
  dutyrefresh_help: 'Reload your departments and ranks from the panel',
  duty_help: 'Go on or off duty',
  duty_param_name: 'department',
  duty_param_help: 'the number or slug of one of your departments, or off',
  duty_choose: 'Your departments: /{command} <number or slug> goes on duty, /{command} off goes off duty.',
  duty_list_department: '{number}. {department} ({slug}), {rank}',
  duty_list_department_on_duty: '{number}. {department} ({slug}), {rank}: on duty',
  duty_menu_title: 'Duty',
  duty_menu_department: '{rank}',
  duty_menu_department_on_duty: 'On duty as {rank}',
  duty_menu_off: 'Go off duty',
  duty_unknown_department: 'You have no department "{choice}"; /{command} lists yours.',
  dutyrefresh_id_help: "Supervisors: another player's server id",
} as const;

export type MessageKey = keyof typeof ENGLISH;
export type Messages = Record<MessageKey, string>;

export const MESSAGE_KEYS = Object.keys(ENGLISH) as MessageKey[];

export const isMessageKey = (key: string): key is MessageKey => (MESSAGE_KEYS as string[]).includes(key);

const PLACEHOLDER = /\{(\w+)\}/g;

const placeholdersIn = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string);

// Parameters the client passes although the English text leaves them out, so an owner's text may use them.
const UNUSED_BY_ENGLISH: Partial<Record<MessageKey, readonly string[]>> = {
  off_duty: ['department'],
  off_duty_account_removed: ['department'],
  off_duty_admin: ['department'],
  off_duty_replaced: ['department'],
  off_duty_superseded: ['department'],
  off_duty_server_shutdown: ['department'],
  duty_menu_department: ['number', 'department', 'slug'],
  duty_menu_department_on_duty: ['number', 'department', 'slug'],
};

/** The placeholders a message is given: an override may use any of them, or leave them out. */
export const placeholdersOf = (key: MessageKey): string[] => [
  ...new Set([...placeholdersIn(ENGLISH[key]), ...(UNUSED_BY_ENGLISH[key] ?? [])]),
];

/**
 * Why an owner's text cannot replace a message, or undefined when it can. A placeholder the message is not given
 * would reach players as literal braces, so it is refused rather than shown.
 */
export function overrideProblem(key: MessageKey, text: unknown): string | undefined {
  if (typeof text !== 'string') return 'a message must be a string';
  const allowed = placeholdersOf(key);
  const unknown = placeholdersIn(text).filter((name) => !allowed.includes(name));
  if (unknown.length === 0) return undefined;
  const offered = allowed.length > 0 ? `it can use ${allowed.map((name) => `{${name}}`).join(', ')}` : 'it has none';
  return `${key} has no placeholder ${unknown.map((name) => `{${name}}`).join(', ')}; ${offered}`;
}

/**
 * The messages with the owner's `Config.Locale` applied. Unknown keys and unusable texts keep English here; the
 * server validates the same table (shared/config/schema.ts) and names each problem in its console.
 */
export function messagesFrom(overrides: unknown): Messages {
  const messages: Messages = { ...ENGLISH };
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) return messages;
  for (const [key, text] of Object.entries(overrides)) {
    if (isMessageKey(key) && overrideProblem(key, text) === undefined) messages[key] = text as string;
  }
  return messages;
}

export function formatMessage(
  table: Record<string, string>,
  key: string,
  params: Record<string, unknown> = {},
): string {
  const template = table[key] ?? key;
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * How messages reach the player: `auto` shows them with ox_lib's notify while ox_lib is started and in the game's
 * feed otherwise; `feed` always uses the feed.
 */
export const NOTIFICATION_STYLES = ['auto', 'feed'] as const;
export type NotificationStyle = (typeof NOTIFICATION_STYLES)[number];
