// Issue 12, item 11, end to end: the built bridge in the simulator against a panel that is not our mock, on a real
// loopback socket, answering only what the spec shows (and, in the second case, keys of its own).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, TOKEN, type World } from './support/world.js';

interface SpecPanel {
  url: string;
  /** `METHOD path` and the JSON body of every duty call. */
  dutyCalls: Array<{ call: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
}

/** A panel of someone else's making: `departments` for Alex, 404 for anyone else, `duty` for every duty call. */
async function startPanel(departments: unknown, duty: (action: string) => unknown): Promise<SpecPanel> {
  const dutyCalls: SpecPanel['dutyCalls'] = [];
  const send = (response: import('node:http').ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return send(response, 401, { ok: false });
      const path = request.url ?? '';
      if (request.method === 'GET') {
        return path === `/api/leo/user/${TWO_DEPARTMENTS}/departments`
          ? send(response, 200, departments)
          : send(response, 404, { ok: false });
      }
      const action = /^\/api\/leo\/duty\/(on|off)$/.exec(path)?.[1];
      if (request.method !== 'POST' || !action) return send(response, 404, { ok: false });
      dutyCalls.push({ call: `POST ${path}`, body });
      return send(response, 200, duty(action));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dutyCalls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the built bridge against a panel that is not our mock', () => {
  let world: World | undefined;
  let panel: SpecPanel | undefined;
  afterEach(async () => {
    world?.sim.assertNoErrors();
    await world?.close();
    await panel?.close();
    world = undefined;
    panel = undefined;
  });

  async function updateDuty(player: SimPlayer, status: boolean): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    bridgeOf(player).UpdatePlayerDuty(status, (outcome) => outcomes.push(outcome));
    await world?.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
    await world?.sim.settle();
    return outcomes[0] as DutyOutcome;
  }

  async function playOnAndOff(departments: unknown, duty: (action: string) => unknown) {
    panel = await startPanel(departments, duty);
    world = await startWorld({ convars: { BRIDGE_API_BASE: panel.url, BRIDGE_LEO_API_TOKEN: TOKEN } });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const options = bridgeOf(alex).GetDutyOptions() as unknown as {
      ok: boolean;
      departments: Array<{ id: number; rank: { id: number; name: string }; setActive: () => boolean }>;
    };
    options.departments[0]?.setActive();
    const on = await updateDuty(alex, true);
    const onDuty = bridgeOf(alex).IsPlayerOnDuty();
    const off = await updateDuty(alex, false);
    return { alex, options, on, onDuty, off };
  }

  it('answering only what the spec shows: the player loads their profile, goes on duty and off duty', async () => {
    const { alex, options, on, onDuty, off } = await playOnAndOff(
      { ok: true, departments: [{ id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2 } }] },
      () => ({ ok: true }),
    );
    expect(options.ok).toBe(true);
    expect(options.departments.map(({ id, rank }) => [id, rank.id, rank.name])).toEqual([[1, 2, 'rank 2']]);
    expect(on).toMatchObject({ ok: true, onDuty: true, departmentId: 1, rankId: 2 });
    expect(onDuty).toBe(true);
    expect(off).toMatchObject({ ok: true, onDuty: false });
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(false);
    expect(panel?.dutyCalls.map(({ call, body }) => [call, body.departmentId])).toEqual([
      ['POST /api/leo/duty/on', 1],
      ['POST /api/leo/duty/off', 1],
    ]);
    expect(world?.eventArgs('bridge:client:deptData', alex)).toEqual([
      [{ departmentId: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2, name: 'rank 2' }, data: {} }],
    ]);
  });

  it('adding keys of its own and data of its own shape: deptData carries `data` exactly as the panel sent it', async () => {
    const data = {
      vehicles: ['police', { model: 'police3' }],
      uniforms: 'see the locker room',
      radio: { channel: 7, codes: [10, 'x'] },
    };
    const { alex, on, off } = await playOnAndOff(
      {
        ok: true,
        apiVersion: 3,
        user: { id: 'u_1' },
        departments: [{ id: 1, slug: 'lspd', name: 'LSPD', motto: 'serve', rank: { id: 2, name: 'Sergeant' }, data }],
      },
      (action) =>
        action === 'on'
          ? { ok: true, duty: { onDuty: true, departmentId: 1, rankId: 2, shift: 'night' }, traceId: 'a1' }
          : { ok: true, duty: { onDuty: false }, traceId: 'a2' },
    );
    expect(on).toMatchObject({ ok: true, onDuty: true, departmentId: 1, rankId: 2 });
    expect(off).toMatchObject({ ok: true, onDuty: false });
    expect(panel?.dutyCalls.map(({ call }) => call)).toEqual(['POST /api/leo/duty/on', 'POST /api/leo/duty/off']);
    expect(world?.eventArgs('bridge:client:deptData', alex)).toEqual([
      [{ departmentId: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2, name: 'Sergeant' }, data }],
    ]);
  });
  it('sending its ids as text, with one department it cannot read: the others load, and duty calls carry numbers', async () => {
    const { options, on, off } = await playOnAndOff(
      {
        ok: true,
        departments: [
          { id: '1', slug: 'lspd', name: 'LSPD', rank: { id: '2', name: 'Sergeant' } },
          { id: '2', slug: 'bcso', rank: { id: '4' } },
        ],
      },
      (action) =>
        action === 'on' ? { ok: true, duty: { onDuty: true, departmentId: '1', rankId: '2' } } : { ok: true },
    );
    expect(options.ok).toBe(true);
    expect(options.departments.map(({ id, rank }) => [id, rank.id, rank.name])).toEqual([[1, 2, 'Sergeant']]);
    expect(on).toMatchObject({ ok: true, onDuty: true, departmentId: 1, rankId: 2 });
    expect(off).toMatchObject({ ok: true, onDuty: false });
    expect(panel?.dutyCalls.map(({ call, body }) => [call, body.departmentId, body.rankId])).toEqual([
      ['POST /api/leo/duty/on', 1, 2],
      ['POST /api/leo/duty/off', 1, undefined],
    ]);
    const leftOut = world?.sim.console.filter((line) => line.text.includes('left out')).map((line) => line.text);
    expect(leftOut).toEqual([expect.stringMatching(/WARN: .*department id "2" \(slug "bcso"\).*name/)]);
    expect(world?.consoleText()).not.toContain(TOKEN);
  });
});
