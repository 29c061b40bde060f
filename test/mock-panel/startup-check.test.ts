import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentsPath, STARTUP_CHECK_CHAT_ID } from '../../shared/contract';
import { TWO_DEPARTMENTS } from './support/demo-users';
import { type RunningPanel, TRANSPORTS } from './support/panel-transports';

// The bridge checks the panel and its token at start with the departments of a user nobody has: the request log
// marks that request, so the dashboard can show its 404 as the answer it expects rather than as a failure.

describe.each(TRANSPORTS)("the bridge's start-up check in the request log, $name", (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start();
  });
  afterAll(() => running.stop());

  it('is marked, whatever the answer; other lookups are not', async () => {
    const check = departmentsPath(STARTUP_CHECK_CHAT_ID);
    await running.client.get(check);
    await running.client.get(check, { headers: { authorization: 'Bearer wrong' } });
    await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    await running.client.get(departmentsPath('999999999999999999'));
    await running.client.post(check, {});
    expect(
      running.panel.controls.requests().map(({ method, path, status, startupCheck }) => ({
        method,
        path,
        status,
        startupCheck,
      })),
    ).toEqual([
      { method: 'GET', path: check, status: 404, startupCheck: true },
      { method: 'GET', path: check, status: 401, startupCheck: true },
      { method: 'GET', path: departmentsPath(TWO_DEPARTMENTS), status: 200, startupCheck: undefined },
      { method: 'GET', path: departmentsPath('999999999999999999'), status: 404, startupCheck: undefined },
      { method: 'POST', path: check, status: 405, startupCheck: undefined },
    ]);
  });
});
