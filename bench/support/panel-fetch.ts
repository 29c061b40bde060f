import { getResponse } from 'msw';
import type { MockPanel } from '../../mock-panel/index.js';

export interface PanelTraffic {
  /** Every request that reached the panel (the mock's own log keeps only the last 1000). */
  requests: number;
  byStatus: Map<number | 'network', number>;
  /** Requests per `METHOD /path` (virtual runs only: the in-process panel sees every one). */
  byPath?: Map<string, number>;
  /** Every request to a path asked before, with the time since that path was last asked (virtual runs only). */
  repeats?: Array<{ path: string; sincePreviousMs: number }>;
  /** Answer latencies the panel added, in ms of the clock the bench runs on. */
  count(status: number | 'network'): number;
}

export interface PanelFetchOptions {
  panel: MockPanel;
  /** The clock the run is on (the simulator's, virtual or real). */
  now: () => number;
  /** Latency added to every answer, on `now`'s clock (the mock's own latency fault uses real timers). */
  latencyMs: number;
}

/**
 * `fetch` straight into the mock panel's handlers, without sockets: what the simulated server's Node sees as its
 * global fetch. A network-error answer (an outage's reset) rejects like undici's `fetch failed`.
 */
export function createPanelFetch(options: PanelFetchOptions): {
  fetch: typeof fetch;
  traffic: PanelTraffic;
  /** Ends the answers still waiting out their latency (the clock stops with the simulator). */
  close(): void;
} {
  let closed = false;
  const byStatus = new Map<number | 'network', number>();
  const traffic: PanelTraffic = {
    requests: 0,
    byStatus,
    byPath: new Map(),
    repeats: [],
    count: (status) => byStatus.get(status) ?? 0,
  };
  const lastAskedAt = new Map<string, number>();
  const waitUntil = async (at: number, signal: AbortSignal | null) => {
    while (options.now() < at && !signal?.aborted && !closed) await new Promise((resolve) => setImmediate(resolve));
  };
  const panelFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    traffic.requests += 1;
    const path = `${request.method} ${new URL(request.url).pathname}`;
    traffic.byPath?.set(path, (traffic.byPath.get(path) ?? 0) + 1);
    const started = options.now();
    const previous = lastAskedAt.get(path);
    if (previous !== undefined) traffic.repeats?.push({ path, sincePreviousMs: started - previous });
    lastAskedAt.set(path, started);
    const response = await getResponse(options.panel.handlers, request);
    await waitUntil(started + options.latencyMs, request.signal);
    if (request.signal.aborted) throw request.signal.reason ?? new DOMException('aborted', 'AbortError');
    if (!response || response.type === 'error') {
      byStatus.set('network', (byStatus.get('network') ?? 0) + 1);
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    }
    byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
    return response;
  };
  return {
    fetch: panelFetch as typeof fetch,
    traffic,
    close: () => {
      closed = true;
    },
  };
}
