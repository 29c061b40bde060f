import type { PanelControls } from '../controls/panel-controls';
import type { PanelContext } from '../panel-context';
import { apiHandlers } from './api';
import { controlHandlers } from './controls';
import { dashboardPageHandlers } from './dashboard-page';

/**
 * All routes of the mock panel. `origin` is `*` (any host) or one base URL such as `http://panel.test`; the order
 * matters, since each catch-all comes after the routes it stands behind.
 */
export function createHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  return [
    ...apiHandlers(context, origin),
    ...controlHandlers(context, controls, origin),
    ...dashboardPageHandlers(origin),
  ];
}
