import type { DutyAction } from './duty';

export const API_PREFIX = '/api/leo';

/** Route templates in the `:param` form used by MSW and Express; OpenAPI's `{param}` form is derived from these. */
export const ROUTES = {
  departments: `${API_PREFIX}/user/:chatId/departments`,
  duty: `${API_PREFIX}/duty/:action`,
} as const;

/** Path of the departments endpoint; the id is percent-encoded so any string stays inside its path segment. */
export function departmentsPath(chatId: string): string {
  return `${API_PREFIX}/user/${encodeURIComponent(chatId)}/departments`;
}

export function dutyPath(action: DutyAction): string {
  return `${API_PREFIX}/duty/${action}`;
}

/**
 * The chat id of the bridge's start-up check: a well-formed id no user has, so the answer (a 404 `user_not_found`)
 * tells whether the panel is up and takes the token, for one request. A panel that logs requests can tell the check
 * from a real lookup by it.
 */
export const STARTUP_CHECK_CHAT_ID = '0'.repeat(18);
