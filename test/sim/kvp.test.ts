// Resource KVP: typed values per resource, persisted on disk across a server restart (fivem-runtime.md §8).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entries, logOf, startFixtures, tempDir } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sims: Sim[] = [];
afterEach(async () => {
  for (const s of sims) await s.stop();
  sims = [];
});
const start = async (...args: Parameters<typeof startFixtures>) => {
  const sim = await startFixtures(...args);
  sims.push(sim);
  return sim;
};

describe('values and iteration', () => {
  it('keeps typed values per resource from JS: defaults, deletion, wrong-type reads, sorted full keys', async () => {
    const sim = await start({ kvpDir: tempDir('sim-kvp-') });
    const out = sim.exports.sim_core.Kvp() as Record<string, unknown>;
    expect(out).toEqual({
      keys: ['alpha:1', 'alpha:2'],
      alpha: 'one',
      deleted: null,
      beta: 1.25,
      missingString: null,
      missingInt: 0,
      wrongType: expect.stringContaining('not of the requested type'),
      starts: 1,
    });
  });

  it('does the same from Lua, in the resource’s own namespace', async () => {
    const sim = await start({ kvpDir: tempDir('sim-kvp-') });
    sim.exports.sim_core.Kvp();
    expect(sim.exports.sim_consumer.Kvp()).toEqual({
      keys: ['alpha:a', 'alpha:b'],
      visits: 1,
      ratio: 0.25,
      missing: 'nil',
      coreKeyVisible: 'nil',
    });
  });
});

describe('persistence', () => {
  it('survives sim.restart() on the same directory (JS and Lua counters)', async () => {
    const dir = tempDir('sim-kvp-');
    const sim = await start({ kvpDir: dir });
    await sim.restart();
    expect(entries(logOf(sim, 'sim_core'), 'starts')).toEqual([{ kind: 'starts', starts: 2 }]);
    expect((sim.exports.sim_consumer.Kvp() as Record<string, unknown>).visits).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual(['sim_consumer.kvp.jsonl', 'sim_core.kvp.jsonl']);
  });

  it('is read by a brand new simulator on the same directory', async () => {
    const dir = tempDir('sim-kvp-');
    const first = await start({ kvpDir: dir });
    first.exports.sim_core.Kvp();
    await first.stop();
    const second = await start({ kvpDir: dir });
    expect(entries(logOf(second, 'sim_core'), 'starts')).toEqual([{ kind: 'starts', starts: 2 }]);
    expect((second.exports.sim_core.Kvp() as Record<string, unknown>).keys).toEqual(['alpha:1', 'alpha:2']);
    expect(fs.existsSync(path.join(dir, 'sim_core.kvp.jsonl'))).toBe(true);
  });

  it('keeps KVP in memory across sim.restart() when no directory is given', async () => {
    const sim = await start();
    await sim.restart();
    expect(entries(logOf(sim, 'sim_core'), 'starts')).toEqual([{ kind: 'starts', starts: 2 }]);
  });
});
