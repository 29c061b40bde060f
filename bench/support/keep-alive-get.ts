import { connect, type Socket } from 'node:net';

// The load client of the mock-panel throughput bench: one GET at a time over one kept-alive connection, the request
// bytes built once, the answer read only as far as its status and Content-Length. node:http's own client costs about
// as much CPU per request as a bare node:http server does, so with it the bare server's figure would be the
// client's; this one costs a fraction of either server (the bench prints its CPU share to show it).

export interface KeepAliveGet {
  /** Sends the GET and resolves with the answer's status once its whole body has arrived. */
  get(): Promise<number>;
  close(): void;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*([0-9]+)/i;

export async function openKeepAliveGet(url: URL, headers: Record<string, string>): Promise<KeepAliveGet> {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const requestBytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);

  const socket: Socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });

  let pending: { resolve: (status: number) => void; reject: (error: Error) => void } | undefined;
  let buffered: Buffer = Buffer.alloc(0);
  const fail = (error: Error) => {
    const waiting = pending;
    pending = undefined;
    waiting?.reject(error);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('the server closed the connection')));
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    const headEnd = buffered.indexOf(HEAD_END);
    if (headEnd < 0 || !pending) return;
    const head = buffered.toString('latin1', 0, headEnd);
    const length = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
    const end = headEnd + HEAD_END.length + length;
    if (buffered.length < end) return;
    buffered = buffered.subarray(end);
    const waiting = pending;
    pending = undefined;
    waiting.resolve(Number(head.slice(9, 12)));
  });

  return {
    get: () =>
      new Promise<number>((resolve, reject) => {
        pending = { resolve, reject };
        socket.write(requestBytes);
      }),
    close: () => socket.destroy(),
  };
}
