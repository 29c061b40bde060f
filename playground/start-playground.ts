import { createMockPanel, type MockPanel, type MockPanelOptions, startMockPanelServer } from '../mock-panel/index.js';
import { Playground, type PlaygroundOptions } from './playground.js';
import { playgroundHandlers } from './routes.js';

/** Joined at start, so the dashboard has someone to put on duty: two departments, one, and none. */
export const DEMO_PLAYERS = ['284619375016482817', '1039284756102938475', '417293856102947583'] as const;
/** An account the panel does not know: joining it shows what an unregistered player sees. */
export const UNREGISTERED = { chatId: '999999999999999999', name: 'Unregistered player' } as const;

export interface RunningPlayground {
  /** The mock panel's address; the dashboard is at `${url}/`. */
  url: string;
  panel: MockPanel;
  playground: Playground;
  close(): Promise<void>;
}

/**
 * The mock panel on a socket with the dashboard and the playground's routes, and the bridge in a simulated server
 * pointed at it, with the demo players joined.
 */
export async function startPlaygroundWithPanel(
  options: MockPanelOptions & {
    port?: number;
    host?: string;
    demoPlayers?: readonly string[];
    /** The bridge's `Config.RefreshIntervalMs` (npm start -- --refresh-interval 15s). */
    refreshIntervalMs?: number;
    /** More lines for the bridge's config.lua (tests). */
    bridgeConfig?: readonly string[];
    /** More resources for the simulated server (tests). */
    resources?: PlaygroundOptions['resources'];
  },
): Promise<RunningPlayground> {
  const {
    port,
    host,
    demoPlayers = DEMO_PLAYERS,
    refreshIntervalMs,
    bridgeConfig,
    resources,
    ...panelOptions
  } = options;
  const panel = createMockPanel(panelOptions);
  let playground: Playground | undefined;
  const server = await startMockPanelServer({
    panel,
    port,
    host,
    handlers: playgroundHandlers(() => playground, options.token),
  });
  try {
    const users = [...panel.store.users.all().map(({ chatId, name }) => ({ chatId, name })), UNREGISTERED];
    playground = await Playground.start({
      apiBase: server.url,
      token: options.token,
      users,
      refreshIntervalMs,
      config: bridgeConfig,
      resources,
      // The panel's off call does not say why; the playground sees the game side and tells the dashboard.
      onOffDuty: (chatId, departmentId, reason) => panel.store.duty.noteEndReason(chatId, departmentId, reason),
    });
    for (const chatId of demoPlayers) await playground.join(chatId);
  } catch (error) {
    await playground?.close();
    await server.close();
    throw error;
  }
  const started = playground;
  return {
    url: server.url,
    panel,
    playground: started,
    close: async () => {
      await started.close();
      await server.close();
    },
  };
}
