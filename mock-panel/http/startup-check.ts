import { departmentsPath, STARTUP_CHECK_CHAT_ID } from '../../shared/contract';
import type { PanelRequest } from './panel-exchange';

const STARTUP_CHECK_PATH = departmentsPath(STARTUP_CHECK_CHAT_ID);

/**
 * Whether the request is the bridge's start-up check: its 404 is the answer the check expects, not a failure, and the
 * dashboard shows it as such.
 */
export function isStartupCheck(request: Pick<PanelRequest, 'method' | 'pathname'>): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.pathname === STARTUP_CHECK_PATH;
}
