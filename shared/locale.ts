/**
 * Every message a player can see, in English. `{name}` placeholders are filled from the message's parameters.
 * Owners can override any key from config.lua (a later issue wires the overrides).
 */
export const ENGLISH = {
  on_duty: 'You are now on duty: {department}, {rank}.',
  off_duty: 'You are now off duty.',
  off_duty_department_removed: 'You were taken off duty: you are no longer a member of {department}.',
  off_duty_admin: 'An administrator took you off duty.',
  already_on_duty: 'You are already on duty in {department}.',
  already_off_duty: 'You are not on duty.',
  rank_changed: 'Your rank is now {rank}.',
  refreshed: 'Your departments and ranks were refreshed.',
  refresh_failed: 'Your departments could not be refreshed right now; try again in a moment.',
  refresh_cooldown: 'Please wait {seconds} s before refreshing again.',
  refreshing: 'Refreshing your departments...',
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
} as const;

export type MessageKey = keyof typeof ENGLISH;

export function formatMessage(
  table: Record<string, string>,
  key: string,
  params: Record<string, unknown> = {},
): string {
  const template = table[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
