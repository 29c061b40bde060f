import { createPanelFetch } from './panel-fetch.js';

interface Recorded {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * The in-process mock panel without its own cost: a request the panel has answered once (same method, URL and
 * body) gets that answer again, rebuilt as a new Response, without running the panel's handlers. A duty toggle
 * repeated many times then costs the bridge's work only (its HTTP client still reads a Response, as it would from
 * the network). The first answer to each distinct request comes from the panel itself.
 */
export function createReplayedPanelFetch(
  panel: Parameters<typeof createPanelFetch>[0]['panel'],
  now: () => number,
  /** Runs the replay's own synchronous work (a simulator's host-work meter puts it on the host's side). */
  asPanel: <T>(work: () => T) => T = (work) => work(),
) {
  const live = createPanelFetch({ panel, now, latencyMs: 0 });
  const recorded = new Map<string, Recorded>();
  let replayed = 0;
  const replayingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // Node's fetch makes a Request of its own from what it is handed, even from a Request (the spec's first step),
    // on the caller's side; reading the body is the panel's.
    const request = new Request(input, init);
    const text = await asPanel(() => request.text());
    const key = `${request.method} ${request.url} ${text}`;
    const answer = recorded.get(key);
    if (answer) {
      replayed += 1;
      return asPanel(() => new Response(answer.body, { status: answer.status, headers: answer.headers }));
    }
    const { method, url, headers } = request;
    const response = await live.fetch(new Request(url, { method, headers, ...(text ? { body: text } : {}) }));
    recorded.set(key, { status: response.status, headers: [...response.headers], body: await response.clone().text() });
    return response;
  };
  return {
    fetch: replayingFetch as typeof fetch,
    /** Requests answered from the record, not by the panel. */
    get replayed() {
      return replayed;
    },
    /** Requests the panel itself answered. */
    get answered() {
      return live.traffic.requests;
    },
    /** Forgets the answers recorded (they are the replay's heap, not the bridge's). */
    forget: () => recorded.clear(),
    close: () => live.close(),
  };
}
