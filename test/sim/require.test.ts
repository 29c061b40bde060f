// A server script's `require` as FXServer makes it (citizenfx/fivem JavaScriptEnvironmentCode.h): relative names
// resolve from the resource's folder whichever script asks, packages from <resource>/node_modules, built-ins as
// usual, and the Node sandbox refuses to read a file outside every resource folder.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, startFixtures, tempDir, tempResource } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());

const probe = (id: string, name = `Load_${id.replace(/\W/g, '_')}`) =>
  `exports('${name}', () => { try { return String(require(${JSON.stringify(id)}).name); } catch (e) { return 'refused: ' + e.code; } });`;

describe("a server script's require", () => {
  it('resolves a relative name from the resource folder, not from the script that asks', async () => {
    const dir = tempResource('loader', {
      'fxmanifest.lua': manifest("server_script 'dist/main.js'"),
      'dist/main.js': `${probe('./dist/part.js')}\n${probe('./part.js')}`,
      // Not named in the manifest, as FXServer needs it not to be.
      'dist/part.js': "module.exports = { name: 'the part beside main.js, by its path from the resource' };",
    });
    sim = await startFixtures({ resources: [dir] });
    expect(sim.exports.loader.Load___dist_part_js()).toBe('the part beside main.js, by its path from the resource');
    expect(sim.exports.loader.Load___part_js()).toBe('refused: MODULE_NOT_FOUND');
  });

  it('gives each resource its own file for the same relative name, also across servers in one process', async () => {
    const part = (name: string) =>
      tempResource(name, {
        'fxmanifest.lua': manifest("server_script 'main.js'"),
        'main.js': probe('./dist/part.js', 'Part'),
        'dist/part.js': `module.exports = { name: 'the part of ${name}' };`,
      });
    sim = await startFixtures({ resources: [part('first'), part('second')] });
    expect([sim.exports.first.Part(), sim.exports.second.Part()]).toEqual(['the part of first', 'the part of second']);
    await sim.stop();
    sim = await startFixtures({ resources: [part('third')] });
    expect(sim.exports.third.Part()).toBe('the part of third');
  });

  it('loads a file once per server: a second server of the same folder gets a fresh copy, as a new process would', async () => {
    const dir = tempResource('counter', {
      'fxmanifest.lua': manifest("server_script 'main.js'"),
      'main.js': probe('./dist/count.js', 'Count'),
      'dist/count.js': 'let n = 0;\nmodule.exports = { get name() { n += 1; return n; } };',
    });
    sim = await startFixtures({ resources: [dir] });
    expect([sim.exports.counter.Count(), sim.exports.counter.Count()]).toEqual(['1', '2']);
    await sim.stop();
    sim = await startFixtures({ resources: [dir] });
    expect(sim.exports.counter.Count()).toBe('1');
  });

  it('reads the "type" of the package.json above a file as Node does: a .js file is an ES module under "type": "module", a .cjs file never', async () => {
    const files = {
      'fxmanifest.lua': manifest("server_script 'main.js'"),
      'main.js': `${probe('./dist/part.js', 'Js')}\n${probe('./dist/part.cjs', 'Cjs')}`,
      'dist/part.js': "module.exports = { name: 'CommonJS' };",
      'dist/part.cjs': "module.exports = { name: 'CommonJS' };",
    };
    // The checkout's own package.json, and one in a folder above a resource (an owner's server-data).
    const inside = tempResource('checkout', { ...files, 'package.json': '{"type":"module"}' });
    const above = tempResource('nested', files);
    fs.writeFileSync(path.join(above, '..', 'package.json'), '{"type":"module"}');
    const plain = tempResource('plain', files);
    sim = await startFixtures({ resources: [inside, above, plain] });
    // Node 20 and 22 differ in how it fails (empty, or a ReferenceError for `module`), never in what it is not.
    expect(sim.exports.checkout.Js()).not.toBe('CommonJS');
    expect(sim.exports.nested.Js()).not.toBe('CommonJS');
    expect(sim.exports.plain.Js()).toBe('CommonJS');
    for (const name of ['checkout', 'nested', 'plain']) expect(sim.exports[name].Cjs()).toBe('CommonJS');
  });

  it("finds packages in the resource's node_modules and Node's built-ins", async () => {
    const dir = tempResource('withdeps', {
      'fxmanifest.lua': manifest("server_script 'main.js'"),
      'main.js': `${probe('some-package')}\n${probe('node:path')}`,
      'node_modules/some-package/package.json': '{"name":"some-package","main":"index.js"}',
      'node_modules/some-package/index.js': "module.exports = { name: 'from node_modules' };",
    });
    sim = await startFixtures({ resources: [dir] });
    expect(sim.exports.withdeps.Load_some_package()).toBe('from node_modules');
    expect(sim.exports.withdeps.Load_node_path()).toBe('undefined');
  });

  it('refuses a file outside every resource folder, also through a symlink, as the Node sandbox does', async () => {
    const outside = tempDir('outside-');
    fs.writeFileSync(path.join(outside, 'secret.js'), "module.exports = { name: 'outside' };");
    const dir = tempResource('escaper', {
      'fxmanifest.lua': manifest("server_script 'main.js'"),
      'main.js': `${probe(path.join(outside, 'secret.js'), 'Absolute')}\n${probe('./linked/secret.js', 'Linked')}`,
    });
    fs.symlinkSync(outside, path.join(dir, 'linked'), 'dir');
    sim = await startFixtures({ resources: [dir] });
    expect(sim.exports.escaper.Absolute()).toBe('refused: ERR_ACCESS_DENIED');
    expect(sim.exports.escaper.Linked()).toBe('refused: ERR_ACCESS_DENIED');
  });
});
