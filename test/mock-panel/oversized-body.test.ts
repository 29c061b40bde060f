// Issue 12, item 12: the mock panel stops reading an oversized body. A chunked POST once streamed 34.6 MB in 3 s
// with no answer, because the server read every body whole before it looked at the request.
import { request as httpRequest } from 'node:http';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockPanel, MAX_BODY_BYTES, type MockPanelServer, startMockPanelServer } from '../../mock-panel';
import { dutyPath } from '../../shared/contract';
import { TWO_DEPARTMENTS } from './support/demo-users';

const TOKEN = 'oversized-token-4d2e';
// Far more than the cap: a server that reads the body whole reads all of it before it answers.
const CLIENT_GIVES_UP_AFTER = 16 * 1024 * 1024;
const CHUNK = Buffer.alloc(16 * 1024, 'x');
// In-process bodies are finite, so a reader that takes it whole ends too (and fails the test instead of hanging).
const STREAM_BYTES = 8 * 1024 * 1024;

interface StreamedPost {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes the client handed to its socket before the answer came (kernel buffers included). */
  written: number;
  /** The server closed the connection: the client did not close it. */
  closedByServer: boolean;
}

/**
 * A chunked POST that keeps streaming `{"pad":"xxxx...` until the server answers (or the client gives up and ends
 * it), then waits for the connection to close without closing it itself.
 */
function streamPost(port: number, headers: Record<string, string>): Promise<StreamedPost> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    let ended = false;
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: dutyPath('on'),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    const pump = () => {
      while (!answered && !ended) {
        if (written >= CLIENT_GIVES_UP_AFTER) {
          ended = true;
          request.end('"}');
          return;
        }
        written += CHUNK.length;
        if (!request.write(CHUNK)) {
          request.once('drain', pump);
          return;
        }
      }
    };
    request.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while the client still writes: that is the point, not a failure of the test.
      if (!answered) reject(error);
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const socket = request.socket;
        const done = () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            written,
            closedByServer: true,
          });
        if (!socket || socket.destroyed) done();
        else socket.once('close', done);
      });
    });
    request.write('{"pad":"');
    pump();
  });
}

let server: MockPanelServer;
beforeAll(async () => {
  server = await startMockPanelServer({ panel: createMockPanel({ token: TOKEN }), port: 0 });
});
afterAll(() => server.close());

describe('an oversized chunked body on a real socket', () => {
  it('without a token: 401 before the body is read, and the connection is closed', async () => {
    const before = server.bytesReceived;
    const answer = await streamPost(server.port, {});
    const read = server.bytesReceived - before;
    console.log(
      `oversized body, no token: ${answer.status} after the client wrote ${answer.written} bytes; the server read ${read}`,
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: 'unauthorized' });
    // Not read up to the cap, let alone the 16 MB the client would send: at most what node buffers unasked.
    expect(read).toBeLessThan(MAX_BODY_BYTES);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedByServer).toBe(true);
  });

  it('with the token: 413 as soon as the cap is passed, and the connection is closed', async () => {
    const before = server.bytesReceived;
    const answer = await streamPost(server.port, { authorization: `Bearer ${TOKEN}` });
    const read = server.bytesReceived - before;
    console.log(
      `oversized body, with token: ${answer.status} after the client wrote ${answer.written} bytes; the server read ${read} (cap ${MAX_BODY_BYTES})`,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: 'payload_too_large' });
    expect(read).toBeGreaterThan(MAX_BODY_BYTES);
    // The cap, plus at most one read of node's socket buffer past it.
    expect(read).toBeLessThan(MAX_BODY_BYTES + 256 * 1024);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedByServer).toBe(true);
  });

  it('a request within the cap on the same server still works and keeps its connection', async () => {
    const response = await fetch(`${server.url}${dutyPath('off')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: TWO_DEPARTMENTS }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('connection')).not.toBe('close');
  });
});

/** An in-process duty call whose body streams on and on; `pulled` is how much of it the mock panel asked for. */
async function postEndlessBody(headers: Record<string, string>) {
  const panel = createMockPanel({ token: TOKEN });
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= STREAM_BYTES) return controller.close();
      pulled += CHUNK.length;
      controller.enqueue(new Uint8Array(CHUNK));
    },
  });
  const request = new Request(`http://panel.test${dutyPath('on')}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
  const response = await getResponse(panel.handlers, request);
  return { response, pulled };
}

describe('an oversized streamed body in-process (msw)', () => {
  it('413 once the cap is passed, without pulling the rest of the stream', async () => {
    const { response, pulled } = await postEndlessBody({ authorization: `Bearer ${TOKEN}` });
    expect(response?.status).toBe(413);
    expect(await response?.json()).toMatchObject({ ok: false, error: 'payload_too_large' });
    expect(pulled).toBeLessThan(MAX_BODY_BYTES + 4 * CHUNK.length);
  });

  it('without a token: 401 and the stream is not pulled past what the runtime buffers', async () => {
    const { response, pulled } = await postEndlessBody({});
    expect(response?.status).toBe(401);
    expect(pulled).toBeLessThan(MAX_BODY_BYTES);
  });
});
