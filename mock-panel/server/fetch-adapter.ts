import type { IncomingMessage, ServerResponse } from 'node:http';
import { knownBodyOf } from '../http/responses';

/**
 * The request body as a stream that reads the socket only when the route asks for the next chunk. Nothing is read
 * ahead: a request refused before its body is looked at (a wrong token) costs what node buffered unasked, and the
 * route stops an oversized body at the cap (json-body.ts). Cancelling does not destroy the message, which would
 * take the socket and the answer with it; the server closes the connection after answering instead.
 */
function bodyOf(message: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) =>
        new Promise<void>((resolve, reject) => {
          const settle = (step: () => void) => {
            message.off('readable', tryRead);
            message.off('end', onEnd);
            message.off('error', onError);
            message.off('close', onClose);
            step();
            resolve();
          };
          const tryRead = () => {
            const chunk = message.read() as Buffer | null;
            if (chunk !== null) settle(() => controller.enqueue(new Uint8Array(chunk)));
          };
          const onEnd = () => settle(() => controller.close());
          const onError = (error: Error) => {
            settle(() => controller.error(error));
            reject(error);
          };
          const onClose = () => {
            if (!message.complete) onError(new Error('the client closed the connection mid-body'));
          };
          if (message.readableEnded) return settle(() => controller.close());
          message.on('readable', tryRead);
          message.on('end', onEnd);
          message.on('error', onError);
          message.on('close', onClose);
          tryRead();
        }),
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
