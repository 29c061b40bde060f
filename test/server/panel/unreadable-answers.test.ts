// Issue 23, item 2: only the panel's own answer is an answer. An answer whose body is not the panel's JSON (a proxy's
// HTML page, an empty body, text, JSON without a boolean `ok`) says nothing about the player, whatever its status.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, NO_DEPARTMENTS, playerWith, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import { createPanelTransport } from '../../../server/panel/panel-client.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import {
  connect,
  departmentsCall,
  PANEL_URL,
  PROBE_PATH,
  startBridge,
  TOKEN,
  useMockPanel,
} from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();
const FIVE_MINUTES = 300_000;
const DEPARTMENTS = `${PANEL_URL}/api/leo/user/:chatId/departments`;

const page = (status: number, body: string, type: string | null) => () =>
  new HttpResponse(body, { status, headers: type === null ? {} : { 'content-type': type } });

/** Answers that are not the panel's, each with the words the owner is shown for it. */
const UNREADABLE = {
  'an HTML 404 page': [
    page(404, '<html><head><title>404 Not Found</title></head></html>', 'text/html'),
    'an HTML 404 page',
  ],
  'an empty 404': [page(404, '', null), 'an empty 404 answer'],
  'a 404 in plain text': [page(404, 'Not Found', 'text/plain'), 'a 404 answer that is not JSON'],
  'a 404 of JSON without a boolean ok': [
    () => HttpResponse.json({ message: 'Not Found', ok: 'false' }, { status: 404 }),
    'a 404 answer of JSON without a boolean `ok`',
  ],
  'a Cloudflare-like HTML 403 page': [
    page(403, '<!DOCTYPE html><title>Attention Required!</title>', 'text/html'),
    'an HTML 403 page',
  ],
} as const;

describe.each(Object.entries(UNREADABLE))('%s', (_name, [answer, words]) => {
  it('is an unreadable answer to the transport, told as what it is', async () => {
    mock.use(http.get(DEPARTMENTS, answer));
    const transport = createPanelTransport({ apiBase: PANEL_URL, token: TOKEN, timeoutMs: 5_000 });
    const { result } = await transport.getDepartments(TWO_DEPARTMENTS);

    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreadable' } });
    if (!result.ok) {
      expect(result.failure.message).toContain(words);
      expect(result.failure.code).toBeUndefined();
    }
  });

  it('leaves an expired profile in memory and KVP as it was, and tells nobody to /syncme', async () => {
    const store = createMemoryStore();
    const running = await startBridge(mock.panel, { store });
    await connect(running, 7, ALEX);
    const kept = store.get(`profile:${TWO_DEPARTMENTS}`);
    await elapse(FIVE_MINUTES + 1);
    mock.use(http.get(DEPARTMENTS, answer));

    running.port.requestRefresh(7);
    await settle();

    const profiles = running.port.sentTo(7, PUBLIC_EVENTS.profile).flat();
    expect(profiles).not.toContainEqual(expect.objectContaining({ error: 'not_registered' }));
    expect(profiles.at(-1)).toMatchObject({ ok: true, chatId: TWO_DEPARTMENTS });
    expect(running.bridge.profiles.cached(7)).toMatchObject({ kind: 'found' });
    expect(store.get(`profile:${TWO_DEPARTMENTS}`)).toBe(kept);
    expect(running.port.lines.join('\n')).not.toContain('/syncme');
  });
});

describe('a proxy’s 404 pages in front of the panel, over time', () => {
  it('open the circuit like a 500, and the panel’s own answer closes it and brings the profiles back', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(FIVE_MINUTES + 1);
    mock.panel.controls.setOutage({ mode: 'proxy_404' });

    running.port.requestRefresh(7);
    await connect(running, 8, JAMIE);
    await connect(running, 9, playerWith(NO_DEPARTMENTS));
    await elapse(2_000);
    expect(running.port.linesWith('the panel is unreachable')).toEqual([expect.stringContaining('HTML 404 page')]);

    const whileBehindTheProxy = running.answers().length;
    mock.panel.controls.clearFaults('outage');
    await elapse(20_000);
    expect(running.port.linesWith('the panel answers again')).toHaveLength(1);
    expect(running.answers().slice(whileBehindTheProxy)).toContain(`${departmentsCall(TWO_DEPARTMENTS)} 200`);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).flat().at(-1)).toMatchObject({ ok: true });
  });

  it('the start-up check says it got an HTML 404 page, names BRIDGE_API_BASE, and does not say the panel answers', async () => {
    mock.panel.controls.setOutage({ mode: 'proxy_404' });
    const running = await startBridge(mock.panel);

    expect(mock.panel.controls.requests().map((entry) => `${entry.path} ${entry.status}`)).toEqual([
      `${PROBE_PATH} 404`,
    ]);
    expect(running.port.linesWith('answers and accepts the API token')).toEqual([]);
    expect(running.port.linesWith('HTML 404 page')).toEqual([
      expect.stringMatching(/WARN: .*HTML 404 page.*BRIDGE_API_BASE/),
    ]);
  });

  it('an HTML 200 page (the web site at that address) makes the start-up check name BRIDGE_API_BASE too', async () => {
    mock.use(http.get(DEPARTMENTS, page(200, '<!doctype html><title>Our Community</title>', 'text/html')));
    const running = await startBridge(mock.panel);

    expect(running.port.linesWith('answers and accepts the API token')).toEqual([]);
    expect(running.port.linesWith('the start-up check')).toEqual([
      expect.stringMatching(/WARN: .*an HTML 200 page \("Our Community"\).*BRIDGE_API_BASE/),
    ]);
  });

  it('the panel’s own 404 for a route it does not have is no unknown account, and names BRIDGE_API_BASE', async () => {
    const noRoute = () =>
      HttpResponse.json({ ok: false, error: 'not_found', message: 'no such route' }, { status: 404 });
    mock.use(http.get(DEPARTMENTS, noRoute));
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    expect(running.port.linesWith('the start-up check')).toEqual([
      expect.stringMatching(/WARN: .*no route for.*BRIDGE_API_BASE/),
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: false, error: 'panel_unavailable' })],
    ]);
  });

  it('the panel’s own 404 (JSON with `ok: false`, no code, as the spec shows it) is still an unknown account', async () => {
    mock.use(http.get(DEPARTMENTS, () => HttpResponse.json({ ok: false }, { status: 404 })));
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    expect(running.port.linesWith('answers and accepts the API token')).toHaveLength(1);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: false, error: 'not_registered' })],
    ]);
  });
});
