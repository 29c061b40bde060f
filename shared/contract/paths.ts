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
