// A duty call's JSON goes to fetch as text (server/panel/panel-client.ts): what reaches a real listening panel must
// be the call as the contract has it, and the request's deadline must hold.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPanelTransport } from '../../../server/panel/panel-client.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

const TOKEN = 'duty-request-token-8c41f2a9b7';
let server: Server | undefined;

/** A panel on a free loopback port that records each request and answers with `answer` (or not at all). */
async function panel(answer: ((seen: Seen, response: ServerResponse) => void) | 'never') {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      if (answer !== 'never') answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, apiBase: `http://127.0.0.1:${port}` };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe("a duty call's request", () => {
  it('reaches the panel as a JSON POST with the token, and its answer is read', async () => {
    const { seen, apiBase } = await panel((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, duty: { onDuty: true, departmentId: 2, rankId: 7 } }));
    });
    const transport = createPanelTransport({ apiBase, token: TOKEN, timeoutMs: 5_000, fetch: (i, n) => fetch(i, n) });
    const body = { chatId: '284619375016482817', departmentId: 2, rankId: 7 };
    const exchange = await transport.setDuty('on', body);

    expect(exchange.result).toMatchObject({ ok: true, value: { duty: { onDuty: true, departmentId: 2 } } });
    expect(seen).toHaveLength(1);
    const [request] = seen as [Seen];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/leo/duty/on');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.accept).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual(body);
  });

  it('a profile fetch stays a GET without a body', async () => {
    const { seen, apiBase } = await panel((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, departments: [] }));
    });
    const transport = createPanelTransport({ apiBase, token: TOKEN, timeoutMs: 5_000 });
    await transport.getDepartments('284619375016482817');
    expect(seen).toMatchObject([{ method: 'GET', url: '/api/leo/user/284619375016482817/departments', body: '' }]);
    expect(seen[0]?.headers['content-type']).toBeUndefined();
  });

  it('gives up at its deadline when the panel never answers', async () => {
    const { seen, apiBase } = await panel('never');
    const transport = createPanelTransport({ apiBase, token: TOKEN, timeoutMs: 200 });
    const exchange = await transport.setDuty('off', { chatId: '284619375016482817' });
    expect(exchange.result).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
    expect(seen).toMatchObject([{ method: 'POST', url: '/api/leo/duty/off' }]);
  });
});
