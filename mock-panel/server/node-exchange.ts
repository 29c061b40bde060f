import type { IncomingMessage, ServerResponse } from 'node:http';
import { isNetworkError, type PanelAnswer, type PanelRequest } from '../http/panel-exchange';
import type { ClientGone } from './client-gone';
import { readCappedBody } from './message-body';

/** A header as Fetch's `Headers.get` reads it: names compared case-insensitively, repeated fields joined with `, `. */
function headerOf(rawHeaders: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const field = rawHeaders[index] as string;
    if (field.length !== name.length || field.toLowerCase() !== name) continue;
    const fieldValue = rawHeaders[index + 1] as string;
    value = value === null ? fieldValue : `${value}, ${fieldValue}`;
  }
  return value;
}

/** The socket's address, IPv4-mapped addresses as plain IPv4. */
export function socketClientIp(message: IncomingMessage): string {
  const address = message.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/**
 * A node:http request as a panel route reads it, no Fetch objects. The client address is the socket's own. A class,
 * not an object of closures: the mock runs under tsx, whose kept names cost a property definition per closure.
 */
export class NodeRequest implements PanelRequest {
  readonly method: string;
  readonly pathname: string;
  readonly clientIp: string;

  constructor(
    private readonly message: IncomingMessage,
    url: URL,
    private readonly clientGone: ClientGone,
  ) {
    this.method = message.method ?? 'GET';
    this.pathname = url.pathname;
    this.clientIp = socketClientIp(message);
  }

  header(name: string): string | null {
    return headerOf(this.message.rawHeaders, name.toLowerCase());
  }

  signal(): AbortSignal {
    return this.clientGone.signal();
  }

  readBody(limit: number): Promise<Uint8Array | undefined> {
    return readCappedBody(this.message, limit);
  }
}

const byName = (left: readonly [string, string], right: readonly [string, string]) =>
  left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0;

/**
 * Writes an answer as the Fetch adapter wrote a Response before (sendFetchResponse): lower-case names in `Headers`
 * order, the body's length (a HEAD's too, without the body), and `Connection: close` with `close`. A network error
 * resets the connection.
 */
export function sendAnswer(answer: PanelAnswer, target: ServerResponse, close = false): void {
  if (isNetworkError(answer)) {
    target.socket?.resetAndDestroy();
    return;
  }
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body.bytes;
  const length = String(body.byteLength);
  const headers: string[] = [];
  let lengthSent = false;
  for (const [name, value] of answer.headers
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(byName)) {
    if (name === 'content-length') lengthSent = true;
    headers.push(name, name === 'content-length' ? length : value);
  }
  if (!lengthSent) headers.push('content-length', length);
  if (close) headers.push('connection', 'close');
  target.writeHead(answer.status, headers);
  if (answer.headOnly) target.end();
  else target.end(body);
}
