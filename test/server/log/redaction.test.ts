// Issue 12, item 7: not even part of the token is printed, whatever length an upstream or a log line cut it to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { createPanelTransport } from '../../../server/panel/panel-client.js';

// As long as a real token (32 hex digits and a prefix), and with no run of 6 characters that reads as prose.
const TOKEN = 'leo_9f3Kq2Zx7Lm4Tb8Rw1Yc6Vn0Hd5Gj3Ps';
const MIN_FRAGMENT = 6;

/** Every piece of the token of 6 characters or more that `text` contains. */
function fragmentsIn(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + MIN_FRAGMENT <= TOKEN.length; start++) {
    const piece = TOKEN.slice(start, start + MIN_FRAGMENT);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

/** The token cut the ways an upstream or a log line cuts it: prefixes, suffixes and middles of 6+ characters. */
function cuts(): Array<{ name: string; piece: string }> {
  const all: Array<{ name: string; piece: string }> = [];
  for (let length = MIN_FRAGMENT; length <= TOKEN.length; length++) {
    all.push({ name: `first ${length}`, piece: TOKEN.slice(0, length) });
    all.push({ name: `last ${length}`, piece: TOKEN.slice(TOKEN.length - length) });
    const from = Math.floor((TOKEN.length - length) / 2);
    all.push({ name: `middle ${length}`, piece: TOKEN.slice(from, from + length) });
  }
  return all;
}

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ print: (line) => lines.push(line), secrets: () => [TOKEN] });
  return { lines, logger };
}

describe('a secret masked only whole (a Redis URL and its credentials)', () => {
  it('is masked where it appears whole, and its pieces, ordinary words and addresses, stay', () => {
    const lines: string[] = [];
    const url = 'redis://:community@127.0.0.1:6379/0';
    const logger = createLogger({ print: (line) => lines.push(line), wholeSecrets: () => [url, '//:community@'] });
    logger.warn(`the convar is ${url}; the community on redis://***@127.0.0.1:6379/0 says //:community@`);
    expect(lines).toEqual(['WARN: the convar is ***; the community on redis://***@127.0.0.1:6379/0 says ***']);
  });
});

describe('redaction in log lines', () => {
  it('removes every fragment of 6+ characters of the token, at every cut, wherever it sits in the line', () => {
    const { lines, logger } = capture();
    for (const { piece } of cuts()) {
      logger.warn(`the body is not JSON: "x${piece}"`);
      logger.warn(`${piece} at the start`);
      logger.warn(`glued:${piece}${piece}:twice`);
    }
    const leaking = lines.filter((line) => fragmentsIn(line).length > 0);
    console.log(`redaction: ${cuts().length} cuts × 3 placements, ${leaking.length} lines leak a fragment`);
    expect(leaking).toEqual([]);
    expect(lines).toHaveLength(cuts().length * 3);
    // The rest of the line survives: the owner still reads what went wrong.
    expect(lines[0]).toBe('WARN: the body is not JSON: "x***"');
  });

  it('removes any Authorization or Bearer value, as header text or echoed JSON, however short', () => {
    const { lines, logger } = capture();
    logger.warn('upstream said: Authorization: Bearer abc');
    logger.warn('upstream said: authorization: Basic dXNlcjpwYXNz');
    logger.warn('echo {"headers":{"authorization":"Bearer xyz12","host":"panel"}}');
    logger.warn('escaped "{\\"Authorization\\":\\"Bearer q1w2\\"}"');
    logger.warn('curl -H "BEARER tok9"');
    expect(lines).toEqual([
      'WARN: upstream said: Authorization: ***',
      'WARN: upstream said: authorization: ***',
      'WARN: echo {"headers":{"authorization":"***","host":"panel"}}',
      'WARN: escaped "{\\"Authorization\\":\\"***\\"}"',
      'WARN: curl -H "BEARER ***"',
    ]);
  });

  it("leaves the bridge's own words after `bearer` as they were, and still masks a value that only starts like them", () => {
    const { lines, logger } = capture();
    logger.info('metrics: Prometheus metrics at /bridge/metrics (bearer token from bridge_metrics_token)');
    logger.info('a scrape gets the Bearer challenge; Bearer tokens are refused, as is a bearer credential');
    logger.warn('upstream said: Bearer token-9f3c and Bearer tokens2');
    expect(lines).toEqual([
      'INFO: metrics: Prometheus metrics at /bridge/metrics (bearer token from bridge_metrics_token)',
      'INFO: a scrape gets the Bearer challenge; Bearer tokens are refused, as is a bearer credential',
      'WARN: upstream said: Bearer *** and Bearer ***',
    ]);
  });

  it('leaves lines that hold no part of the token as they were', () => {
    const { lines, logger } = capture();
    const plain = 'player 7 is on duty in department lspd as rank 3 (chat id 284619375016482817)';
    logger.info(plain);
    expect(lines).toEqual([`INFO: ${plain}`]);
  });

  it('masks a token at the end of a long line of near misses', () => {
    const { logger } = capture();
    const long = `${'leo_9f3Kq2Z'.repeat(20_000)}${TOKEN}`;
    const redacted = logger.redact(long);
    expect(fragmentsIn(redacted)).toEqual([]);
  });
});

describe('redaction of a panel answer that echoes the Authorization header (real HTTP)', () => {
  let server: Server;
  let base = '';
  // What the next answer looks like: the echoed header cut to `cut` characters, in one of the forms upstreams use.
  let cut = 0;
  let form: 'text' | 'json_error' | 'html_502' | 'json_200' = 'text';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const echoed = String(request.headers.authorization ?? '').slice(0, cut);
      if (form === 'text') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`you sent ${echoed}`);
      } else if (form === 'json_error') {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: false, error: 'invalid_json', message: `header was ${echoed}` }));
      } else if (form === 'json_200') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: false, error: 'rank_mismatch', message: echoed }));
      } else {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end(`<h1>502</h1><pre>${echoed}</pre>`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reaches no console line and no failure message, at every truncation length of `Bearer <token>`', async () => {
    const { lines, logger } = capture();
    const transport = createPanelTransport({ apiBase: base, token: TOKEN, timeoutMs: 5_000 });
    const messages: string[] = [];
    const header = `Bearer ${TOKEN}`;
    for (const kind of ['text', 'json_error', 'html_502', 'json_200'] as const) {
      form = kind;
      for (cut = 'Bearer '.length + MIN_FRAGMENT; cut <= header.length; cut++) {
        const exchange = await transport.setDuty('off', { chatId: '284619375016482817' });
        expect(exchange.result.ok).toBe(false);
        if (exchange.result.ok) continue;
        messages.push(exchange.result.failure.message);
        // As the outbox and the profile service print a failure.
        logger.warn(`duty calls do not get through: ${exchange.result.failure.message}`);
      }
    }
    const leakingMessages = messages.filter((message) => fragmentsIn(message).length > 0);
    const leakingLines = lines.filter((line) => fragmentsIn(line).length > 0);
    console.log(
      `redaction, real HTTP: ${messages.length} echoed answers, ${leakingMessages.length} failure messages and ${leakingLines.length} console lines leak a fragment`,
    );
    expect(messages.length).toBe(4 * (TOKEN.length - MIN_FRAGMENT + 1));
    // A failure message goes to the player too (`panel_refused`), not only through the logger.
    expect(leakingMessages).toEqual([]);
    expect(leakingLines).toEqual([]);
  });
});
