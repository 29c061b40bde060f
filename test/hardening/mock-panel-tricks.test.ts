import { connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockPanel, MAX_BODY_BYTES, type MockPanelServer, startMockPanelServer } from '../../mock-panel';
import { DepartmentsResponseSchema, ErrorBodySchema } from '../../shared/contract';

const TOKEN = 'tricks-token-3c1d';
const ALEX = '284619375016482817';
const AUTH = `Authorization: Bearer ${TOKEN}`;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function decodeChunked(raw: string): string {
  let out = '';
  let rest = raw;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return out;
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** Sends `head` (request line and header lines, no trailing blank line) and `body` as written, byte for byte. */
function raw(port: number, head: string[], body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rawBody = text.slice(split + 4);
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: headers['transfer-encoding'] === 'chunked' ? decodeChunked(rawBody) : rawBody,
      });
    });
    const lines = [...head, 'Host: 127.0.0.1', 'Connection: close'];
    if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

let server: MockPanelServer;
beforeAll(async () => {
  const panel = createMockPanel({ token: TOKEN, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  server = await startMockPanelServer({ panel, port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

const figures: string[] = [];
afterAll(() => {
  console.log(
    `[hardening] mock panel tricks: ${figures.length} tricks, each a clean 4xx with ok:false, panel kept serving`,
  );
  for (const line of figures) console.log(`[hardening]   ${line}`);
});

async function expectCleanRefusal(name: string, answer: RawAnswer) {
  expect(answer.status, name).toBeGreaterThanOrEqual(400);
  expect(answer.status, name).toBeLessThan(500);
  expect(answer.headers['content-type'], name).toMatch(/^application\/json/);
  const body = ErrorBodySchema.parse(JSON.parse(answer.body));
  expect(body.ok).toBe(false);
  figures.push(`${answer.status} ${body.error}: ${name}`);
  // The panel keeps serving after every trick.
  const after = await raw(server.port, [`GET /api/leo/user/${ALEX}/departments HTTP/1.1`, AUTH]);
  expect(after.status, `a valid request after: ${name}`).toBe(200);
  DepartmentsResponseSchema.parse(JSON.parse(after.body));
}

const get = (id: string, headers = [AUTH]) => [`GET /api/leo/user/${id}/departments HTTP/1.1`, ...headers];
const dutyOff = (headers: string[]) => ['POST /api/leo/duty/off HTTP/1.1', ...headers];
const offBody = JSON.stringify({ chatId: ALEX, departmentId: 1 });

describe('path tricks in the chat id', () => {
  const ids: Array<[string, string]> = [
    ['encoded slash', `${ALEX}%2F..%2F${ALEX}`],
    ['encoded slash alone', '%2F'],
    ['encoded backslash', `${ALEX}%5C..`],
    ['dot', '.'],
    ['dots in the id', `${ALEX.slice(0, 9)}.${ALEX.slice(9)}`],
    ['encoded dot-dot', '%2E%2E'],
    ['encoded dot-dot-slash chain', '..%2F..%2F..%2Fetc%2Fpasswd'],
    ['Arabic-Indic digits', encodeURIComponent('٢٨٤٦١٩٣٧٥٠١٦٤٨٢٨١٧')],
    ['full-width digits', encodeURIComponent('２８４６１９３７５０１６４８２８１７')],
    ['Devanagari digits', encodeURIComponent('२८४६१९३७५०१६४८२८१७')],
    ['NUL byte', `${ALEX}%00`],
    ['encoded space', `%20${ALEX}`],
    ['plus sign', `+${ALEX}`],
    ['negative', `-${ALEX.slice(1)}`],
    ['exponent', '2.8e17'],
    ['very long id (5,000 digits)', '1'.repeat(5_000)],
    ['very long id (20 digits)', '1'.repeat(20)],
    ['double-encoded slash', `${ALEX}%252F`],
    ['raw unicode bytes in the path', '٢٨٤٦'],
  ];
  for (const [name, id] of ids) {
    it(`${name}: a clean 4xx`, async () => {
      await expectCleanRefusal(`chat id ${name}`, await raw(server.port, get(id)));
    });
  }

  it('oversized request headers (a 100,000-digit id): a clean 4xx', async () => {
    await expectCleanRefusal('chat id of 100,000 digits', await raw(server.port, get('1'.repeat(100_000))));
  });

  it('a literal `..` segment that leaves the user route: a clean 4xx', async () => {
    await expectCleanRefusal(
      'path ../departments',
      await raw(server.port, [`GET /api/leo/user/../departments HTTP/1.1`, AUTH]),
    );
  });
});

describe('bodies and content types', () => {
  it('an oversized body: 413', async () => {
    const huge = JSON.stringify({ chatId: ALEX, departmentId: 1, pad: 'x'.repeat(MAX_BODY_BYTES * 2) });
    await expectCleanRefusal(
      'oversized duty body',
      await raw(server.port, dutyOff([AUTH, 'Content-Type: application/json']), huge),
    );
  });

  for (const type of [null, 'text/plain', 'application/x-www-form-urlencoded', 'text/html', 'application/jsonx']) {
    it(`content type ${type ?? '(none)'}: a clean 4xx`, async () => {
      const headers = type === null ? [AUTH] : [AUTH, `Content-Type: ${type}`];
      await expectCleanRefusal(`content type ${type ?? '(none)'}`, await raw(server.port, dutyOff(headers), offBody));
    });
  }

  it('doubled Content-Type: a clean 4xx', async () => {
    await expectCleanRefusal(
      'doubled Content-Type',
      await raw(server.port, dutyOff([AUTH, 'Content-Type: application/json', 'Content-Type: text/plain']), offBody),
    );
  });

  it('JSON that is not an object, and broken JSON: a clean 4xx', async () => {
    for (const body of ['[]', '"x"', '{"chatId":', 'null']) {
      await expectCleanRefusal(
        `body ${body}`,
        await raw(server.port, dutyOff([AUTH, 'Content-Type: application/json']), body),
      );
    }
  });
});

describe('Authorization', () => {
  const cases: Array<[string, string[]]> = [
    ['missing', []],
    ['doubled, both right', [AUTH, AUTH]],
    ['doubled, right then wrong', [AUTH, 'Authorization: Bearer wrong']],
    ['doubled, wrong then right', ['Authorization: Bearer wrong', AUTH]],
    ['empty', ['Authorization: ']],
    ['Basic scheme', [`Authorization: Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`]],
    ['token with a suffix', [`${AUTH}x`]],
    ['two tokens in one header', [`${AUTH} ${TOKEN}`]],
  ];
  for (const [name, headers] of cases) {
    it(`${name}: 401`, async () => {
      const answer = await raw(server.port, get(ALEX, headers));
      expect(answer.status).toBe(401);
      await expectCleanRefusal(`Authorization ${name}`, answer);
    });
  }
});
