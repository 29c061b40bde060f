import type { PanelRequest } from './panel-exchange';

/** The body of a Fetch Request, or undefined as soon as it passes `limit` (the rest is cancelled, not read). */
async function readCapped(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
}

/** The headers and body of a Fetch Request, as a panel route reads them. */
export function fetchBodyView(request: Request): Pick<PanelRequest, 'header' | 'readBody'> {
  return {
    header: (name) => request.headers.get(name),
    readBody: (limit) => readCapped(request, limit),
  };
}

/** A Fetch Request (what msw hands a handler) as a panel route reads it. */
export function fetchRequestView(request: Request, clientIp: string): PanelRequest {
  return {
    ...fetchBodyView(request),
    method: request.method,
    pathname: new URL(request.url).pathname,
    clientIp,
    signal: () => request.signal,
  };
}
