import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { manifest, startFixtures, tempResource } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let sim: Sim;
afterEach(() => sim?.stop());

// The global setup builds dist/ first, so a missing bundle is a failure here, never a skip.
it('loads the repository root as `bridge` and serves its config to client Lua and JS', async () => {
  const reader = tempResource('config_reader', {
    'fxmanifest.lua': manifest("client_script 'client.lua'"),
    'client.lua': "exports('Interval', function() return exports.bridge:GetConfig().RefreshIntervalMs end)",
  });
  sim = await startFixtures({ resources: [{ dir: repoRoot, name: 'bridge' }, reader] });
  const p = await sim.join({ identifiers: ['chat:123456789012345678'] });
  expect(sim.resourceState('bridge')).toBe('started');
  expect(p.resourceState('bridge')).toBe('started');
  const fromJs = p.exports.bridge.GetConfig();
  expect(typeof fromJs.RefreshIntervalMs).toBe('number');
  expect(p.exports.config_reader.Interval()).toBe(fromJs.RefreshIntervalMs);
});
