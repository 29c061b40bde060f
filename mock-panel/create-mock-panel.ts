import type { HttpHandler } from 'msw';
import { createPanelControls, type PanelControls } from './controls/panel-controls';
import { loadMockPanelData, MockPanelDataError, parseMockPanelData } from './data/load';
import { createHandlers } from './handlers';
import { IN_PROCESS_CLIENT_IP } from './http/client-address';
import { DEFAULT_RATE_LIMIT_HEADER_STYLE, type StandardHeadersDraft } from './http/rate-limit-headers';
import type { PanelContext } from './panel-context';
import { createPanelStore, type PanelStore } from './store';

export interface MockPanelOptions {
  /** The panel's `LEO_API_TOKEN`; requests must send `Authorization: Bearer <token>`. */
  token: string;
  /** Seed data (validated); `mock-panel/data/default.json` when absent. */
  data?: unknown;
  /** The panel's `CHAT_GUILD_ID`; overrides the data's `guildId`. */
  guildId?: string | undefined;
  /** Epoch-ms clock for rate-limit windows, session times and the request log. */
  now?: (() => number) | undefined;
  /** Defaults: 200 per 60 000 ms, `standardHeaders: 'draft-6'`, `legacyHeaders: true` (express-rate-limit's names). */
  rateLimit?:
    | {
        limit?: number | undefined;
        windowMs?: number | undefined;
        standardHeaders?: StandardHeadersDraft | false | undefined;
        legacyHeaders?: boolean | undefined;
      }
    | undefined;
  /** Answer only requests to this origin (e.g. `http://panel.test`); any origin when absent. */
  baseUrl?: string | undefined;
  /** Client address of in-process (msw/node) requests, which have no socket; `127.0.0.1` by default. */
  inProcessClientIp?: ((request: Request) => string) | undefined;
  /** Unexpected handler errors, before they become a 500 (the CLI prints them). Ignored by default. */
  onUnexpectedError?: ((error: unknown) => void) | undefined;
}

export interface MockPanel {
  /** MSW request handlers: `setupServer(...panel.handlers)`. */
  readonly handlers: HttpHandler[];
  readonly store: PanelStore;
  readonly controls: PanelControls;
  readonly token: string;
  readonly guildId: string;
}

const SNOWFLAKE = /^[0-9]{17,20}$/;

/** A mock of the community panel's `/api/leo` with tester controls under `/__mock`. */
export function createMockPanel(options: MockPanelOptions): MockPanel {
  if (!options.token) throw new Error('createMockPanel needs a non-empty token');
  if (options.guildId !== undefined && !SNOWFLAKE.test(options.guildId)) {
    throw new MockPanelDataError(`CHAT_GUILD_ID must be 17 to 20 ASCII digits, got "${options.guildId}"`);
  }
  const data = options.data === undefined ? loadMockPanelData() : parseMockPanelData(options.data);
  const store = createPanelStore({ data, guildId: options.guildId, now: options.now, rateLimit: options.rateLimit });
  const inProcessClientIp = options.inProcessClientIp ?? (() => IN_PROCESS_CLIENT_IP);
  const context: PanelContext = {
    store,
    token: options.token,
    rateLimitHeaders: {
      standardHeaders: options.rateLimit?.standardHeaders ?? DEFAULT_RATE_LIMIT_HEADER_STYLE.standardHeaders,
      legacyHeaders: options.rateLimit?.legacyHeaders ?? DEFAULT_RATE_LIMIT_HEADER_STYLE.legacyHeaders,
    },
    clientIpOf: inProcessClientIp,
    onUnexpectedError: options.onUnexpectedError ?? (() => {}),
  };
  const controls = createPanelControls(store);
  const origin = options.baseUrl?.replace(/\/+$/, '') ?? '*';
  return {
    handlers: createHandlers(context, controls, origin),
    store,
    controls,
    token: options.token,
    guildId: store.guildId,
  };
}
