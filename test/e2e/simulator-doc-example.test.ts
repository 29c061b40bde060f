// test/e2e/simulator-doc-example.test.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createMockPanel, type MockPanelServer, startMockPanelServer } from '../../mock-panel/index.js';
import { createSim, type Sim } from '../../sim/index.js';

const ALEX_MERCER = '284619375016482817'; // a demo user of the mock panel: LSPD and BCSO
const kvpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvp-')); // survives sim.restart() on the same directory
let panel: MockPanelServer | undefined;
let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  await panel?.close();
  fs.rmSync(kvpDir, { recursive: true, force: true });
});

it('hands a joining officer their departments', async () => {
  panel = await startMockPanelServer({ panel: createMockPanel({ token: 'test-token' }), port: 0 });
  sim = await createSim({
    resources: [{ dir: '.', name: 'bridge' }, 'test/e2e/fixtures/lua_duty_menu'],
    convars: `set BRIDGE_API_BASE "${panel.url}"\nset BRIDGE_LEO_API_TOKEN "test-token"`,
    kvpDir,
  });
  const p = await sim.join({ name: 'Officer', identifiers: [`chat:${ALEX_MERCER}`, 'license:abc'] });
  await sim.until(() => p.received('bridge:client:profile').length > 0, 10_000, 'the profile');
  expect(p.exports.bridge.GetDutyOptions().departments).toHaveLength(2);
  p.command('dutyrefresh');
  await sim.until(() => p.notifications.some((n) => n.text.includes('refreshed')), 10_000, 'the refresh');
  sim.assertNoErrors();
});
