/**
 * The mock community panel, for the bridge's tests and for resource developers' own tests.
 *
 * @example In-process with msw/node
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockPanel } from '<path to bridge>/mock-panel';
 *
 * const panel = createMockPanel({ token: 'test-token', baseUrl: 'http://panel.test' });
 * const server = setupServer(...panel.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => panel.controls.reset());
 * afterAll(() => server.close());
 * ```
 *
 * @example Over real HTTP
 * ```ts
 * const running = await startMockPanelServer({ panel: createMockPanel({ token: 't' }), port: 0 });
 * // ... point a client at running.url ...
 * await running.close();
 * ```
 */
export { type CliOptions, type CliParse, parseCliOptions, USAGE } from './cli-options';
export type {
  DepartmentPutResult,
  PanelControls,
  RolesChange,
  UserDeletion,
  UserPut,
} from './controls/panel-controls';
export * from './controls/schemas';
export { createMockPanel, type MockPanel, type MockPanelOptions } from './create-mock-panel';
export { DEFAULT_DATA_FILE, loadMockPanelData, MockPanelDataError, parseMockPanelData } from './data/load';
export { type MockPanelData, MockPanelDataSchema } from './data/schema';
export { CONTROL_PREFIX } from './handlers/controls/control-route';
export { routePredicate } from './handlers/route-predicate';
export { hasBearerToken } from './http/bearer-auth';
export { IN_PROCESS_CLIENT_IP } from './http/client-address';
export { MAX_BODY_BYTES } from './http/json-body';
export type { StandardHeadersDraft } from './http/rate-limit-headers';
export { type PanelCli, runPanelCli } from './run-panel-cli';
export {
  MOCK_PANEL_DEFAULT_HOST,
  MOCK_PANEL_DEFAULT_PORT,
  type MockPanelServer,
  type MockPanelServerOptions,
  startMockPanelServer,
} from './server/http-server';
export { stopSignal } from './stop-signal';
export type { DutySession, PanelStore, RequestLogEntry } from './store';
export type { DepartmentRename, DepartmentRenamed } from './store/user-directory';
