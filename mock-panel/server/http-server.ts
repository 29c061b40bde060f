import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpHandler } from 'msw';
import type { MockPanel } from '../create-mock-panel';
import { bodyText, type PanelAnswer } from '../http/panel-exchange';
import { apiErrorAnswer } from '../http/responses';
import { ClientGone } from './client-gone';
import { sendFetchResponse } from './fetch-adapter';
import { handlerDispatch } from './handler-dispatch';
import { sendAnswer } from './node-exchange';

/** The documented port of `npm run mock-panel`. */
export const MOCK_PANEL_DEFAULT_PORT = 3999;
export const MOCK_PANEL_DEFAULT_HOST = '127.0.0.1';

export interface MockPanelServerOptions {
  panel: MockPanel;
  /** 0 picks a free port. Default 3999. */
  port?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** More routes served before the panel's own (the playground's, under `/__playground`). */
  handlers?: readonly HttpHandler[] | undefined;
}

export interface MockPanelServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  readonly port: number;
  /** TCP connections accepted so far: a client with a keep-alive pool opens few. */
  readonly connectionsAccepted: number;
  /** Bytes read from clients' connections so far, headers included: what the server accepted, not what was sent. */
  readonly bytesReceived: number;
  /** Stops listening, ends hanging requests and closes every connection. */
  close(): Promise<void>;
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * A body the route did not read to its end (a refusal before it, a 413 at the cap) is not read on either: the
 * connection closes after the answer rather than drain what the client still sends. Node drains (dumps) a body nobody
 * has read once the answer is sent; a read of nothing marks it as read, so node leaves it alone.
 */
async function send(message: IncomingMessage, reply: ServerResponse, answer: PanelAnswer | Response): Promise<void> {
  const unread = !message.complete;
  if (unread) message.read(0);
  if (answer instanceof Response) await sendFetchResponse(answer, reply, unread);
  else sendAnswer(answer, reply, unread);
}

/**
 * Serves the panel over real sockets, for testers and real servers: `/api/leo` from the node message itself, every
 * other route through its MSW handler (handler-dispatch.ts).
 */
export async function startMockPanelServer(options: MockPanelServerOptions): Promise<MockPanelServer> {
  const host = options.host ?? MOCK_PANEL_DEFAULT_HOST;
  const inFlight = new Set<AbortController>();
  const answerOf = handlerDispatch([...(options.handlers ?? []), ...options.panel.handlers]);
  let origin = '';

  const handle = async (message: IncomingMessage, reply: ServerResponse) => {
    const clientGone = new ClientGone(inFlight);
    reply.on('close', () => clientGone.closed(reply.writableFinished));
    try {
      // The URL is built on the server's own origin: a client's Host header cannot steer routing.
      const url = new URL(message.url ?? '/', origin);
      const answer =
        (await answerOf({ message, url, clientGone })) ??
        apiErrorAnswer('not_found', `no route ${message.method} ${url.pathname}`);
      await send(message, reply, answer);
    } catch {
      if (reply.headersSent) reply.destroy();
      else await send(message, reply, apiErrorAnswer('internal_error', 'the mock panel failed unexpectedly'));
    }
  };

  const server = createServer((message, reply) => void handle(message, reply));
  // A request node cannot parse (bytes outside ASCII in the path, oversized headers) gets the panel's own error body,
  // not node's bare 400: every refusal of the panel is `ok: false` JSON.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const text = bodyText(
      apiErrorAnswer('not_found', `the request could not be parsed (${error.code ?? 'bad request'})`),
    );
    socket.end(
      'HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? MOCK_PANEL_DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = urlOf(host, port);
  let connectionsAccepted = 0;
  let bytesOfClosedConnections = 0;
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connectionsAccepted++;
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      bytesOfClosedConnections += socket.bytesRead;
    });
  });

  return {
    url: origin,
    port,
    get connectionsAccepted() {
      return connectionsAccepted;
    },
    get bytesReceived() {
      let bytes = bytesOfClosedConnections;
      for (const socket of open) bytes += socket.bytesRead;
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const request of inFlight) request.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
