import ky, { type KyInstance, type Options } from 'ky';
import { setupServer } from 'msw/node';
import { z } from 'zod';
import { createMockPanel, type MockPanel, type MockPanelOptions, startMockPanelServer } from '../../../mock-panel';

export const TOKEN = 'test-token-7f3a';

/** A running mock panel and a ky client for it that sends the token and never throws on an HTTP status. */
export interface RunningPanel {
  panel: MockPanel;
  baseUrl: string;
  client: PanelClient;
  stop(): Promise<void>;
}

export interface PanelClient {
  /** ky for `path` on the panel, with the bearer token unless `headers` replace it. */
  request(path: string, options?: Options): Promise<Response>;
  get(path: string, options?: Options): Promise<Response>;
  post(path: string, json: unknown, options?: Options): Promise<Response>;
  put(path: string, json: unknown, options?: Options): Promise<Response>;
  delete(path: string, options?: Options): Promise<Response>;
}

export interface PanelTransport {
  name: string;
  start(options?: Omit<MockPanelOptions, 'token'>): Promise<RunningPanel>;
}

function clientFor(baseUrl: string): PanelClient {
  // Created after the transport starts: msw/node patches globalThis.fetch while it listens.
  const api: KyInstance = ky.create({
    headers: { authorization: `Bearer ${TOKEN}` },
    throwHttpErrors: false,
    retry: 0,
    timeout: 5_000,
  });
  const request = (path: string, options?: Options) => api(new URL(path, baseUrl), options);
  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'get' }),
    post: (path, json, options) => request(path, { ...options, method: 'post', json }),
    put: (path, json, options) => request(path, { ...options, method: 'put', json }),
    delete: (path, options) => request(path, { ...options, method: 'delete' }),
  };
}

export const inProcess: PanelTransport = {
  name: 'in-process (msw/node)',
  async start(options) {
    const baseUrl = 'http://panel.test';
    const panel = createMockPanel({ token: TOKEN, baseUrl, ...options });
    const server = setupServer(...panel.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    return { panel, baseUrl, client: clientFor(baseUrl), stop: async () => server.close() };
  },
};

export const overHttp: PanelTransport = {
  name: 'real HTTP (127.0.0.1, free port)',
  async start(options) {
    const panel = createMockPanel({ token: TOKEN, ...options });
    const server = await startMockPanelServer({ panel, port: 0, host: '127.0.0.1' });
    return { panel, baseUrl: server.url, client: clientFor(server.url), stop: () => server.close() };
  },
};

export const TRANSPORTS = [inProcess, overHttp];

/** Parses a response body with a contract schema; a mismatch fails the test with zod's explanation. */
export async function bodyOf<Schema extends z.core.$ZodType>(
  response: Response,
  schema: Schema,
): Promise<z.output<Schema>> {
  return z.parse(schema, await response.json());
}
