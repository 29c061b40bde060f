import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpHandler } from 'msw';
import type { MockPanel } from '../create-mock-panel';
import { rememberSocketAddress } from '../http/client-address';
import { apiError } from '../http/responses';
import { sendFetchResponse, toFetchRequest } from './fetch-adapter';
import { handlerDispatch } from './handler-dispatch';

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

/** Serves the panel's MSW handlers over real sockets (handler-dispatch.ts), for testers and real servers. */
export async function startMockPanelServer(options: MockPanelServerOptions): Promise<MockPanelServer> {
  const host = options.host ?? MOCK_PANEL_DEFAULT_HOST;
  const inFlight = new Set<AbortController>();
  const responseOf = handlerDispatch([...(options.handlers ?? []), ...options.panel.handlers]);
  let origin = '';

  const handle = async (message: IncomingMessage, reply: ServerResponse) => {
    const clientGone = new AbortController();
    inFlight.add(clientGone);
    reply.on('close', () => {
      inFlight.delete(clientGone);
      if (!reply.writableFinished) clientGone.abort();
    });
    // A body the route did not read to its end (a refusal before it, a 413 at the cap) is not read on either: the
    // connection closes after the answer rather than drain what the client still sends. Node drains (dumps) a body
    // nobody has read once the answer is sent; a read of nothing marks it as read, so node leaves it alone.
    const send = (response: Response) => {
      const unread = !message.complete;
      if (unread) message.read(0);
      return sendFetchResponse(response, reply, unread);
    };
    try {
      const request = await toFetchRequest(message, origin, clientGone.signal);
      rememberSocketAddress(request, message.socket.remoteAddress ?? 'unknown');
      const response =
        (await responseOf(request)) ??
        apiError('not_found', `no route ${request.method} ${new URL(request.url).pathname}`);
      await send(response);
    } catch {
      if (reply.headersSent) reply.destroy();
      else await send(apiError('internal_error', 'the mock panel failed unexpectedly'));
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
    void apiError('not_found', `the request could not be parsed (${error.code ?? 'bad request'})`)
      .text()
      .then((body) => {
        if (!socket.writable) return;
        socket.end(
          'HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n' +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      });
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
