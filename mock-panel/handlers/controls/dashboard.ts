import { http } from 'msw';
import { DashboardSnapshotSchema, dashboardSnapshot } from '../../dashboard/snapshot';
import { respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, controlRoute } from './control-route';

/** GET /__mock/dashboard   everything the dashboard page shows, in one answer it polls */
export function dashboardHandlers(context: PanelContext, origin: string) {
  return [
    http.get(
      routePredicate(origin, `${CONTROL_PREFIX}/dashboard`),
      controlRoute(context, async () => respond(DashboardSnapshotSchema, dashboardSnapshot(context.store))),
    ),
  ];
}
