import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../http/json-body';

/** Reads at most one byte past the body limit, so an oversized body still answers 413 without filling memory. */
async function readCappedBody(message: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message as AsyncIterable<Buffer>) {
    if (size > MAX_BODY_BYTES) continue;
    chunks.push(chunk);
    size += chunk.length;
  }
  return new Uint8Array(Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1));
}

/** node:http request → Fetch Request, aborted through `signal` when the client goes away. */
export async function toFetchRequest(message: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let index = 0; index + 1 < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index] as string, message.rawHeaders[index + 1] as string);
  }
  const method = message.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readCappedBody(message);
  // The URL is built on the server's own origin: a client's Host header cannot steer routing.
  return new Request(new URL(message.url ?? '/', origin), { method, headers, body, signal });
}

/** Fetch Response → node:http. A network-error Response (`HttpResponse.error()`) resets the connection. */
export async function sendFetchResponse(response: Response, target: ServerResponse): Promise<void> {
  if (response.type === 'error') {
    target.socket?.resetAndDestroy();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  target.statusCode = response.status;
  response.headers.forEach((value, name) => {
    target.setHeader(name, value);
  });
  target.setHeader('content-length', body.byteLength);
  target.end(body);
}
