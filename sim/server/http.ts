// FXServer's resource HTTP handlers (ResourceHttpComponent, native SET_HTTP_HANDLER): `http://server:30120/<name>/…`
// reaches the handler resource <name> registered with SetHttpHandler, as `(request, response)` with the path after
// the resource's prefix. The handler runs on the main thread (the server's next frame). `request` has headers,
// method, address, path, setDataHandler and setCancelHandler; `response` has writeHead (status and headers, only its
// first call counts), write and send (ends the answer). A started resource without a handler answers 404
// "Not found."; a path under no resource reaches FXServer's root endpoint, which answers its version as JSON.
// Not emulated: FXServer's per-address limit of these requests (10/s, burst 25, answered 429).
import type { Host } from '../host/host.js';
import type { HttpHandlers } from './http-handlers.js';

export interface SimHttpRequest {
  /** The server's path, resource first: `/bridge/metrics`. A query string stays in the handler's path. */
  path: string;
  method?: string;
  /** Passed on as the client sent them, keys in their own case (FXServer copies them into a plain map). */
  headers?: Record<string, string>;
  /** Delivered through the handler's setDataHandler, on a later frame. */
  body?: string;
  /** The sender's IP address (request.address). */
  address?: string;
}

export interface SimHttpResponse {
  status: number;
  /** As the handler wrote them; a list when it gave several values. */
  headers: Record<string, string | string[]>;
  body: string;
}

const text = (status: number, body: string): SimHttpResponse => ({
  status,
  headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  body,
});

/** One request through the server's HTTP endpoints; settles when the handler sends its answer. */
export function serveHttp(server: Host, handlers: HttpHandlers, request: SimHttpRequest): Promise<SimHttpResponse> {
  const match = /^\/([^/?#]+)(\/.*)?$/.exec(request.path);
  const resource = match?.[1];
  if (!resource || server.resources.get(resource)?.state !== 'started') {
    return Promise.resolve({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: 'FXServer-sim' }),
    });
  }
  const ref = handlers.get(resource);
  if (!ref) return Promise.resolve(text(404, 'Not found.'));
  const localPath = match?.[2] ?? '/';
  return new Promise((resolve) => {
    server.queueTask(() => dispatch(server, ref, { ...request, path: localPath }, resolve));
  });
}

function dispatch(
  server: Host,
  ref: string,
  request: SimHttpRequest,
  resolve: (response: SimHttpResponse) => void,
): void {
  let status = 200;
  let headers: Record<string, string | string[]> = {};
  let headWritten = false;
  let body = '';
  let ended = false;
  const requestWrap = {
    headers: request.headers ?? {},
    method: request.method ?? 'GET',
    address: request.address ?? '127.0.0.1',
    path: request.path,
    setDataHandler: (handler: unknown, mode?: unknown) => {
      if (typeof handler !== 'function') return;
      const data = request.body ?? '';
      server.queueTask(() => handler(mode === 'binary' ? new Uint8Array(Buffer.from(data)) : data));
    },
    // The simulator's clients never hang up.
    setCancelHandler: () => {},
  };
  const responseWrap = {
    writeHead: (code: unknown, given?: unknown) => {
      if (headWritten || ended) return;
      headWritten = true;
      status = Number(code);
      if (given && typeof given === 'object') {
        headers = Object.fromEntries(
          Object.entries(given as Record<string, unknown>).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.map(String) : String(value),
          ]),
        );
      }
    },
    write: (data: unknown) => {
      if (!ended) body += String(data ?? '');
    },
    send: (data?: unknown) => {
      if (ended) return;
      ended = true;
      if (data !== undefined && data !== null) body += String(data);
      server.test.releaseUnheld(packed.refs);
      resolve({ status, headers, body });
    },
  };
  const packed = server.test.packKeepingRefs([requestWrap, responseWrap]);
  try {
    server.invokeRef(ref, packed.bytes);
  } catch (error) {
    // A handler whose runtime is gone: FXServer prints the failed reference call and the request stays open.
    server.scriptError(ref.split(':')[0] ?? 'unknown', 'call ref', String(error));
  }
}
