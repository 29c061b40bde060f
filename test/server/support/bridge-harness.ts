import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { ALEX, JAMIE, LSPD, SAFR } from '../../../bench/support/demo-users.js';
import {
  type FakePlayer,
  FakeServerPort,
  type FakeServerPortOptions,
} from '../../../bench/support/fake-server-port.js';
import { createMockPanel, type MockPanel, type MockPanelOptions } from '../../../mock-panel/index.js';
import type { BridgeServer } from '../../../server/edge/bridge-server.js';
import { startBridgeServer } from '../../../server/edge/bridge-server.js';
import type { BridgeRuntime } from '../../../server/kernel/server-port.js';
import { API_BASE_CONVAR, TOKEN_CONVAR } from '../../../server/kernel/settings.js';
import { INTERNAL_EVENTS } from '../../../shared/events.js';
import { createVirtualRuntime, settle, useVirtualTime, waitFor } from './virtual-runtime.js';

export const PANEL_URL = 'http://panel.test';
export const TOKEN = 'leo-token-5b9e1c7a';

/** The path of the start-up probe's request (a well-formed id no user has). */
export const PROBE_PATH = `/api/leo/user/${'0'.repeat(18)}/departments`;

export interface RunningBridge {
  port: FakeServerPort;
  bridge: BridgeServer;
  /** `METHOD /path` of every panel request since the bridge was ready, oldest first. */
  calls(): string[];
  /** Like `calls`, with the status the panel answered (null: the connection was reset or hung). */
  answers(): string[];
  /** The outcome the bridge sent for each duty request of `src`, as `[requestId, outcome]`. */
  dutyResults(src: number): unknown[][];
}

const server = setupServer();
const running: BridgeServer[] = [];
let currentPanel: MockPanel | undefined;

type PanelOptions = Omit<MockPanelOptions, 'token' | 'baseUrl' | 'now'>;

export interface MockPanelHandle {
  /** This test's mock panel. */
  readonly panel: MockPanel;
  /** Replaces this test's panel with one made with `options` (call it before starting the bridge). */
  replace(options: PanelOptions): MockPanel;
  /** Puts handlers in front of the panel's for this test (a panel that misbehaves in a way the mock cannot). */
  use(...handlers: RequestHandler[]): void;
}

/**
 * Registers the hooks every bridge test file needs: msw/node with `onUnhandledRequest: 'error'`, virtual time, a
 * fresh mock panel per test on PANEL_URL, and every bridge stopped after its test.
 */
export function useMockPanel(): MockPanelHandle {
  const install = (options: PanelOptions = {}) => {
    currentPanel = createMockPanel({ token: TOKEN, baseUrl: PANEL_URL, now: () => Date.now(), ...options });
    server.resetHandlers(...currentPanel.handlers);
    return currentPanel;
  };
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    useVirtualTime();
    install();
  });
  afterEach(async () => {
    for (const bridge of running.splice(0)) bridge.stop();
    // In-flight answers land in this test's panel, not the next one's.
    await settle();
    vi.useRealTimers();
  });
  afterAll(() => server.close());
  return {
    get panel() {
      if (!currentPanel) throw new Error('the mock panel exists only inside a test');
      return currentPanel;
    },
    replace: install,
    use: (...handlers) => server.use(...handlers),
  };
}

export const panelConvars = (overrides: Record<string, string> = {}): Record<string, string> => ({
  [API_BASE_CONVAR]: PANEL_URL,
  [TOKEN_CONVAR]: TOKEN,
  ...overrides,
});

/** Starts the bridge on a fake FXServer, waits for its start-up probe, and marks where the test's requests begin. */
export async function startBridge(
  panel: MockPanel,
  { runtime = createVirtualRuntime(), ...options }: FakeServerPortOptions & { runtime?: BridgeRuntime } = {},
): Promise<RunningBridge> {
  const port = new FakeServerPort({ convars: panelConvars(), ...options });
  const bridge = startBridgeServer(port, runtime);
  running.push(bridge);
  await waitFor(bridge.ready);
  await settle();
  const mark = panel.controls.requests().length;
  return {
    port,
    bridge,
    calls: () =>
      panel.controls
        .requests()
        .slice(mark)
        .map((entry) => `${entry.method} ${entry.path}`),
    answers: () =>
      panel.controls
        .requests()
        .slice(mark)
        .map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
    dutyResults: (src) => port.sentTo(src, INTERNAL_EVENTS.dutyResult),
  };
}

/** A player joins and their client script reports ready, as on every connect; their profile is loaded after this. */
export async function connect(running: RunningBridge, src: number, player: FakePlayer): Promise<void> {
  running.port.join(src, player);
  running.port.clientReady(src);
  await settle();
}

/**
 * Alex (7) on duty in LSPD and Jamie (8) in SAFR; then the panel resets every connection, Alex asks to go off and
 * Jamie drops, so two off calls wait for the panel.
 */
export async function twoOffCallsWaitingInAnOutage(panel: MockPanel, running: RunningBridge): Promise<void> {
  await connect(running, 7, ALEX);
  await connect(running, 8, JAMIE);
  running.port.requestDuty(7, 1, true, LSPD.id);
  running.port.requestDuty(8, 1, true, SAFR.id);
  await settle();
  panel.controls.setOutage({ mode: 'reset' });
  running.port.requestDuty(7, 2, false, null);
  running.port.drop(8);
}

export const departmentsCall = (chatId: string) => `GET /api/leo/user/${chatId}/departments`;
export const DUTY_ON = 'POST /api/leo/duty/on';
export const DUTY_OFF = 'POST /api/leo/duty/off';
