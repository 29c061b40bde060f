import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LuaModule, readManifest, scriptsFor } from '../../sim/index.js';

const root = join(import.meta.dirname, '..', '..');

describe('fxmanifest.lua, run as Lua the way FXServer reads it', () => {
  it('declares the game, Node 22 and an artifact that has it', async () => {
    const { metadata } = readManifest(await LuaModule.open(), root, 'bridge');
    expect(metadata.get('fx_version')).toEqual(['cerulean']);
    expect(metadata.get('game')).toEqual(['gta5']);
    expect(metadata.get('node_version')).toEqual(['22']);
    expect(metadata.get('dependency')).toEqual(['/server:12913']);
  });

  it('loads config.lua as a shared script before the two bundles, and every file it names exists', async () => {
    const manifest = readManifest(await LuaModule.open(), root, 'bridge');
    const noOtherResources = () => null;
    const server = scriptsFor(manifest, root, 'server', noOtherResources).map((entry) => entry.relative);
    const client = scriptsFor(manifest, root, 'client', noOtherResources).map((entry) => entry.relative);
    expect(server).toEqual(['config.lua', 'dist/server.js']);
    expect(client).toEqual(['config.lua', 'dist/client.js']);
    for (const file of new Set([...server, ...client])) expect(existsSync(join(root, file)), file).toBe(true);
  });
});
