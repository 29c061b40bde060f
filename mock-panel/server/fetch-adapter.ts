import type { IncomingMessage, ServerResponse } from 'node:http';
import { knownBodyOf } from '../http/responses';
import { nextChunk } from './message-body';

/** The request body as a stream that reads the socket only when the route asks for the next chunk (message-body.ts). */
function bodyOf(message: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        const chunk = await nextChunk(message);
        if (chunk === null) controller.close();
        else controller.enqueue(new Uint8Array(chunk));
      },
    },
    { highWaterMark: 0 },
  );
}

/** node:http request → Fetch Request, aborted through `signal` when the client goes away. */
export async function toFetchRequest(message: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let index = 0; index + 1 < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index] as string, message.rawHeaders[index + 1] as string);
  }
  const method = message.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : bodyOf(message);
  // The URL is built on the server's own origin: a client's Host header cannot steer routing.
  return new Request(new URL(message.url ?? '/', origin), {
    method,
    headers,
    signal,
    ...(body ? { body, duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Fetch Response → node:http. A network-error Response (`HttpResponse.error()`) resets the connection. With
 * `close`, the answer says `Connection: close` and node closes the connection once it is sent.
 */
export async function sendFetchResponse(response: Response, target: ServerResponse, close = false): Promise<void> {
  if (response.type === 'error') {
    target.socket?.resetAndDestroy();
    return;
  }
  const body = knownBodyOf(response) ?? Buffer.from(await response.arrayBuffer());
  target.statusCode = response.status;
  response.headers.forEach((value, name) => {
    target.setHeader(name, value);
  });
  target.setHeader('content-length', body.byteLength);
  if (close) target.setHeader('connection', 'close');
  target.end(body);
}
