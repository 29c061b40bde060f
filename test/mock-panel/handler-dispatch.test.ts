import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { getResponse, HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createMockPanel,
  MAX_BODY_BYTES,
  type MockPanel,
  type MockPanelServer,
  startMockPanelServer,
} from '../../mock-panel';
import { departmentsPath, dutyPath } from '../../shared/contract';
import { BCSO, LSPD, TWO_DEPARTMENTS, UNKNOWN_USER } from './support/demo-users';
import { createFakeClock } from './support/fake-clock';

// The /api/leo routes run one pipeline behind two adapters: msw's handlers (a Fetch Request in, a Response out) and
// the node:http server (the socket's message in, res.writeHead/res.end out). Twin panels on one clock, one asked
// through msw and one over a socket, must give the same status, headers, bytes and request log, request by request.

const TOKEN = 'dispatch-token';
const BASE = 'http://panel.test';
const OVERSIZED_CHUNK = Buffer.alloc(16 * 1024, 'x');

type Body =
  | { json: unknown }
  | { raw: string; contentType: string }
  /** Declares more than the cap and sends a few bytes, then waits for the answer. */
  | { declaredOversized: true }
  /** A chunked body past the cap that never ends: the answer must come at the cap. */
  | { chunkedOversized: true };

interface Ask {
  name: string;
  method: string;
  path: string;
  /** null: no Authorization; an array: the field sent that many times. */
  token?: string | null | string[];
  body?: Body;
  /** Applied to both panels before the request, cleared after. */
  fault?: (panel: MockPanel) => void;
  /** The request hangs until the client gives up. */
  hangs?: true;
  /** Sends `Authorization: Basic ...` instead of a bearer token. */
  basic?: true;
}

type Seen = 'network error' | { status: number; headers: [string, string][]; body: string };

const onDuty = { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id, rankId: LSPD.sergeant };
const departments = departmentsPath(TWO_DEPARTMENTS);

const asks: Ask[] = [
  { name: 'departments', method: 'GET', path: departments },
  { name: 'departments of an unknown user', method: 'GET', path: departmentsPath(UNKNOWN_USER) },
  { name: 'departments with a malformed chat id', method: 'GET', path: '/api/leo/user/%E0%A4/departments' },
  { name: 'departments with a wrong token', method: 'GET', path: departments, token: 'nope' },
  { name: 'departments without Authorization', method: 'GET', path: departments, token: null },
  { name: 'departments with Authorization twice', method: 'GET', path: departments, token: [TOKEN, TOKEN] },
  { name: 'departments with POST', method: 'POST', path: departments, body: { json: {} } },
  { name: 'an unknown /api/leo path', method: 'GET', path: '/api/leo/nothing' },
  { name: 'duty with DELETE', method: 'DELETE', path: dutyPath('on') },
  { name: 'duty with GET', method: 'GET', path: dutyPath('off') },
  { name: 'duty with HEAD', method: 'HEAD', path: dutyPath('on') },
  { name: 'duty with OPTIONS and no token', method: 'OPTIONS', path: dutyPath('on'), token: null },
  { name: 'departments with HEAD', method: 'HEAD', path: departments },
  { name: 'departments with HEAD and no token', method: 'HEAD', path: departments, token: null },
  { name: 'departments with OPTIONS', method: 'OPTIONS', path: departments },
  { name: 'departments with Basic credentials', method: 'GET', path: departments, basic: true },
  {
    name: 'duty with a missing field',
    method: 'POST',
    path: dutyPath('on'),
    body: { json: { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id } },
  },
  { name: 'duty with an unknown action', method: 'POST', path: '/api/leo/duty/maybe', body: { json: onDuty } },
  { name: 'duty on', method: 'POST', path: dutyPath('on'), body: { json: onDuty } },
  {
    name: 'duty on with the wrong rank',
    method: 'POST',
    path: dutyPath('on'),
    body: { json: { ...onDuty, departmentId: BCSO.id, rankId: LSPD.sergeant } },
  },
  {
    name: 'duty off',
    method: 'POST',
    path: dutyPath('off'),
    body: { json: { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id } },
  },
  {
    name: 'duty off of an unknown user',
    method: 'POST',
    path: dutyPath('off'),
    body: { json: { chatId: UNKNOWN_USER } },
  },
  { name: 'duty with a bad field', method: 'POST', path: dutyPath('off'), body: { json: { chatId: 'x' } } },
  {
    name: 'duty with broken JSON',
    method: 'POST',
    path: dutyPath('on'),
    body: { raw: '{"chatId":', contentType: 'application/json' },
  },
  { name: 'duty with a JSON array', method: 'POST', path: dutyPath('on'), body: { json: [onDuty] } },
  {
    name: 'duty as text',
    method: 'POST',
    path: dutyPath('on'),
    body: { raw: JSON.stringify(onDuty), contentType: 'text/plain' },
  },
  { name: 'duty declaring an oversized body', method: 'POST', path: dutyPath('on'), body: { declaredOversized: true } },
  { name: 'duty streaming an oversized body', method: 'POST', path: dutyPath('on'), body: { chunkedOversized: true } },
  {
    name: 'duty on with an oversized body and no token',
    method: 'POST',
    path: dutyPath('on'),
    token: 'nope',
    body: { chunkedOversized: true },
  },
  { name: 'latency', method: 'GET', path: departments, fault: (panel) => panel.controls.setLatency(1) },
  {
    name: 'an outage that resets',
    method: 'GET',
    path: departments,
    fault: (panel) => panel.controls.setOutage({ mode: 'reset' }),
  },
  {
    name: 'an outage that hangs',
    method: 'GET',
    path: departments,
    fault: (panel) => panel.controls.setOutage({ mode: 'hang' }),
    hangs: true,
  },
  {
    name: 'an injected 503',
    method: 'GET',
    path: departments,
    fault: (panel) => panel.controls.injectErrors({ error: 'service_unavailable' }),
  },
  {
    name: 'an injected internal error',
    method: 'POST',
    path: dutyPath('on'),
    body: { json: onDuty },
    fault: (panel) => panel.controls.injectErrors({ error: 'internal_error' }),
  },
  ...(['invalid_json', 'wrong_shape', 'html'] as const).map((mode) => ({
    name: `a malformed body (${mode})`,
    method: 'GET',
    path: departments,
    fault: (panel: MockPanel) => panel.controls.setMalformed({ mode }),
  })),
  {
    name: 'an injected 401',
    method: 'GET',
    path: departments,
    fault: (panel) => panel.controls.injectErrors({ error: 'unauthorized' }),
  },
  {
    name: 'a malformed body on a refusal',
    method: 'GET',
    path: departments,
    token: 'nope',
    fault: (panel: MockPanel) => panel.controls.setMalformed({ mode: 'invalid_json', rate: 0.5, seed: 7 }),
  },
];

function authorizations({ token, basic }: Pick<Ask, 'token' | 'basic'>): [string, string][] {
  if (basic) return [['authorization', `Basic ${Buffer.from(`panel:${TOKEN}`).toString('base64')}`]];
  if (token === null) return [];
  return (Array.isArray(token) ? token : [token ?? TOKEN]).map((value) => ['authorization', `Bearer ${value}`]);
}

function contentHeaders(body: Body | undefined): [string, string][] {
  if (body === undefined) return [];
  if ('json' in body) return [['content-type', 'application/json']];
  if ('raw' in body) return [['content-type', body.contentType]];
  if ('declaredOversized' in body) {
    return [
      ['content-type', 'application/json'],
      ['content-length', String(2 * MAX_BODY_BYTES)],
    ];
  }
  return [['content-type', 'application/json']];
}

function fixedBody(body: Body | undefined): string | undefined {
  if (body === undefined) return undefined;
  if ('json' in body) return JSON.stringify(body.json);
  if ('raw' in body) return body.raw;
  return undefined;
}

/** More than the cap, in chunks, and no end: whoever reads it whole never answers. */
function oversizedChunks(): Buffer[] {
  return Array.from({ length: Math.ceil(MAX_BODY_BYTES / OVERSIZED_CHUNK.length) + 1 }, () => OVERSIZED_CHUNK);
}

async function askMsw(panel: MockPanel, ask: Ask): Promise<Seen> {
  const headers = new Headers([...authorizations(ask), ...contentHeaders(ask.body)]);
  const gone = new AbortController();
  let body: BodyInit | undefined = fixedBody(ask.body);
  if (ask.body && ('declaredOversized' in ask.body || 'chunkedOversized' in ask.body)) {
    const chunks = 'declaredOversized' in ask.body ? [Buffer.from('{"pad":"')] : oversizedChunks();
    body = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      },
    });
  }
  const request = new Request(`${BASE}${ask.path}`, {
    method: ask.method,
    headers,
    signal: gone.signal,
    ...(body === undefined ? {} : { body, duplex: 'half' }),
  } as RequestInit);
  const answer = getResponse(panel.handlers, request);
  if (ask.hangs) {
    await vi.waitFor(() => expect(panel.controls.hangingRequests()).toBe(1));
    gone.abort();
  }
  const response = await answer;
  if (!response) throw new Error(`msw did not answer ${ask.name}`);
  if (response.type === 'error') return 'network error';
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive']);

function askNode(server: MockPanelServer, panel: MockPanel, ask: Ask): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of [...authorizations(ask), ...contentHeaders(ask.body)]) {
      const previous = headers[name];
      headers[name] = previous === undefined ? value : [previous as string, value].flat();
    }
    const body = fixedBody(ask.body);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    if (ask.body && 'chunkedOversized' in ask.body) headers['transfer-encoding'] = 'chunked';
    const request = httpRequest({
      host: '127.0.0.1',
      port: server.port,
      method: ask.method,
      path: ask.path,
      headers,
      agent: false,
    });
    let answered = false;
    request.on('error', () => {
      if (!answered) resolve('network error');
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const pairs: [string, string][] = [];
        for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) {
          const name = (response.rawHeaders[index] as string).toLowerCase();
          if (!TRANSPORT_HEADERS.has(name)) pairs.push([name, response.rawHeaders[index + 1] as string]);
        }
        resolve({ status: response.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    if (ask.body && 'declaredOversized' in ask.body) request.write('{"pad":"');
    else if (ask.body && 'chunkedOversized' in ask.body) for (const chunk of oversizedChunks()) request.write(chunk);
    else request.end(body);
    if (ask.hangs) {
      void vi.waitFor(() => expect(panel.controls.hangingRequests()).toBe(1)).then(() => request.destroy(), reject);
    }
  });
}

/**
 * What node:http adds on its own: it always declares the length (a Response for a broken body does not, with the same
 * bytes), and it sends its own Date when the answer has none (no legacy rate-limit headers).
 */
function withoutNodeOwnHeaders(seen: Seen, expected: Seen): Seen {
  if (seen === 'network error' || expected === 'network error') return seen;
  const has = (name: string) => expected.headers.some(([header]) => header === name);
  if (!has('content-length')) {
    expect(seen.headers).toContainEqual(['content-length', String(Buffer.byteLength(seen.body))]);
  }
  const own = (name: string) => (name === 'content-length' || name === 'date') && !has(name);
  return { ...seen, headers: seen.headers.filter(([name]) => !own(name)) };
}

const logged = (panel: MockPanel) => panel.store.requests.list().map(({ latencyMs: _, ...entry }) => entry);

describe('the /api/leo routes over msw and over node:http', () => {
  let viaMsw: MockPanel;
  let viaNode: MockPanel;
  let server: MockPanelServer;
  const clock = createFakeClock(Date.UTC(2025, 5, 1, 20, 0, 0));
  const unexpected: unknown[] = [];
  beforeAll(async () => {
    const options = { token: TOKEN, now: clock.now, onUnexpectedError: (error: unknown) => unexpected.push(error) };
    viaMsw = createMockPanel({ ...options, baseUrl: BASE });
    viaNode = createMockPanel(options);
    server = await startMockPanelServer({ panel: viaNode, port: 0 });
  });
  afterAll(() => server.close());

  it('give the same status, headers (in order), bytes and request log for every kind of request', async () => {
    for (const ask of asks) {
      for (const panel of [viaMsw, viaNode]) ask.fault?.(panel);
      const expected = await askMsw(viaMsw, ask);
      const answer = withoutNodeOwnHeaders(await askNode(server, viaNode, ask), expected);
      expect({ ask: ask.name, answer }).toEqual({ ask: ask.name, answer: expected });
      for (const panel of [viaMsw, viaNode]) panel.controls.clearFaults();
      clock.advance(1_000);
    }
    expect(logged(viaNode)).toEqual(logged(viaMsw));
    expect(logged(viaNode)).toHaveLength(asks.length);
    expect(unexpected).toEqual([]);
  });
});

describe.each([
  { standardHeaders: 'draft-6', legacyHeaders: true },
  { standardHeaders: 'draft-7', legacyHeaders: false },
  { standardHeaders: 'draft-8', legacyHeaders: true },
] as const)('a rate-limited client over msw and over node:http ($standardHeaders)', (style) => {
  it('gets the same 429 with the same Retry-After and rate-limit headers', async () => {
    const clock = createFakeClock(Date.UTC(2025, 5, 1, 20, 0, 0));
    const options = { token: TOKEN, now: clock.now, rateLimit: { limit: 2, windowMs: 60_000, ...style } };
    const viaMsw = createMockPanel({ ...options, baseUrl: BASE });
    const viaNode = createMockPanel(options);
    const server = await startMockPanelServer({ panel: viaNode, port: 0 });
    try {
      const ask: Ask = { name: 'departments', method: 'GET', path: departments };
      const statuses: number[] = [];
      for (let index = 0; index < 3; index++) {
        const expected = await askMsw(viaMsw, ask);
        expect(withoutNodeOwnHeaders(await askNode(server, viaNode, ask), expected)).toEqual(expected);
        if (expected !== 'network error') statuses.push(expected.status);
        clock.advance(7_000);
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(logged(viaNode)).toEqual(logged(viaMsw));
    } finally {
      await server.close();
    }
  });
});

describe('the node:http server and handlers given before the panel', () => {
  it('asks them first, even for a panel route', async () => {
    const panel = createMockPanel({ token: TOKEN });
    const before = http.get('*/api/leo/user/:chatId/departments', () => HttpResponse.text('first'));
    const server = await startMockPanelServer({ panel, port: 0, handlers: [before] });
    try {
      const answer = await askNode(server, panel, { name: 'departments', method: 'GET', path: departments });
      expect(answer).toMatchObject({ status: 200, body: 'first' });
      expect(panel.store.requests.list()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('leaves a panel route the body when they did not answer', async () => {
    // Asking them takes a Fetch Request whose body stream msw tees: the route must read the body through it too.
    const panel = createMockPanel({ token: TOKEN });
    const before = http.post('*/__playground/players/:id/duty', () => HttpResponse.text('playground'));
    const server = await startMockPanelServer({ panel, port: 0, handlers: [before] });
    try {
      const ask: Ask = { name: 'duty on', method: 'POST', path: dutyPath('on'), body: { json: onDuty } };
      const answer = await askNode(server, panel, ask);
      expect(answer).toMatchObject({ status: 200, body: expect.stringContaining('"onDuty":true') });
    } finally {
      await server.close();
    }
  });

  it('answers 404 for a request no handler matches, outside the request log', async () => {
    const panel = createMockPanel({ token: TOKEN });
    const server = await startMockPanelServer({ panel, port: 0 });
    try {
      const answer = await askNode(server, panel, { name: 'elsewhere', method: 'GET', path: '/elsewhere' });
      expect(answer).toMatchObject({ status: 404, body: expect.stringContaining('no route GET /elsewhere') });
      expect(panel.store.requests.list()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
