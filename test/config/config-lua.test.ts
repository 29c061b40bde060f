import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { configShape, defaultConfig, validateConfig } from '../../shared/config/index.js';

const configLua = readFileSync(join(import.meta.dirname, '..', '..', 'config.lua'), 'utf8');

async function runConfigLua(): Promise<{ config: unknown; exportName: string | undefined }> {
  const lua = await new LuaFactory().createEngine();
  try {
    let exportName: string | undefined;
    let getConfig: (() => unknown) | undefined;
    lua.global.set('exports', (name: string, fn: () => unknown) => {
      exportName = name;
      getConfig = fn;
    });
    await lua.doString(configLua);
    return { config: getConfig?.(), exportName };
  } finally {
    lua.global.close();
  }
}

const leafPaths = (shape: object, prefix = ''): string[] =>
  Object.entries(shape).flatMap(([key, value]) =>
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
      ? [`${prefix}${key}`]
      : leafPaths(value as object, `${prefix}${key}.`),
  );

describe('config.lua as shipped', () => {
  it('runs as Lua, exports its table as GetConfig, and holds exactly the documented defaults', async () => {
    const { config, exportName } = await runConfigLua();
    expect(exportName).toBe('GetConfig');
    const { config: validated, problems } = validateConfig(config);
    expect(problems).toEqual([]);
    expect(validated).toEqual(defaultConfig());
    expect(config).toEqual(defaultConfig());
  });

  it('states every option with a comment above it', () => {
    const lines = configLua.split('\n');
    for (const path of leafPaths(configShape)) {
      const key = path.split('.').at(-1) as string;
      const index = lines.findIndex((line) => new RegExp(`^\\s*(Config\\.)?${key}\\s*=`).test(line));
      expect(index, `${path} is missing from config.lua`).toBeGreaterThan(0);
      expect(lines[index - 1]?.trim().startsWith('--'), `${path} has no comment above it`).toBe(true);
    }
  });
});

describe('validating an owner config', () => {
  it('keeps the good values and names each bad key, using its default', () => {
    const { config, problems } = validateConfig({
      RefreshIntervalMs: '5 minutes',
      RequestTimeoutMs: 2500,
      LogLevel: 'verbose',
      Integrations: { JobFramework: 'vrp', FallbackJob: 'civilian' },
    });
    expect(config.RequestTimeoutMs).toBe(2500);
    expect(config.Integrations.FallbackJob).toBe('civilian');
    expect(config.RefreshIntervalMs).toBe(300_000);
    expect(config.LogLevel).toBe('info');
    expect(config.Integrations.JobFramework).toBe(false);
    expect(problems.map((p) => p.key)).toEqual(['RefreshIntervalMs', 'LogLevel', 'Integrations.JobFramework']);
    expect(problems[0]?.message).toContain("RefreshIntervalMs = '5 minutes' is not valid");
    expect(problems[0]?.message).toContain('using the default 300000');
  });

  it('warns about keys it does not know, at any depth', () => {
    const { problems } = validateConfig({ RefreshIntervallMs: 1000, Integrations: { Esx: true } });
    expect(problems).toEqual([
      expect.objectContaining({ key: 'Integrations.Esx', kind: 'unknown' }),
      expect.objectContaining({ key: 'RefreshIntervallMs', kind: 'unknown' }),
    ]);
  });

  it('accepts an empty Lua table, which crosses msgpack as an empty array', () => {
    expect(validateConfig({ Integrations: [] })).toEqual({ config: defaultConfig(), problems: [] });
  });

  it('falls back to every default when the config is not a table', () => {
    const { config, problems } = validateConfig('oops');
    expect(config).toEqual(defaultConfig());
    expect(problems).toHaveLength(1);
  });

  it('takes a RefreshIntervalMs down to one second, for testers, and refuses less', () => {
    expect(validateConfig({ RefreshIntervalMs: 1_000 })).toMatchObject({
      config: { RefreshIntervalMs: 1_000 },
      problems: [],
    });
    const { config, problems } = validateConfig({ RefreshIntervalMs: 999 });
    expect(config.RefreshIntervalMs).toBe(300_000);
    expect(problems.map((p) => p.key)).toEqual(['RefreshIntervalMs']);
  });

  it('refuses out-of-range numbers and fractional milliseconds', () => {
    const { problems } = validateConfig({ RequestTimeoutMs: 0, RefreshIntervalMs: 1234.5 });
    expect(problems.map((p) => p.key).sort()).toEqual(['RefreshIntervalMs', 'RequestTimeoutMs']);
  });

  it('takes a duty command name and menu style, and names each unusable one, keeping its default', () => {
    expect(validateConfig({ DutyCommand: { Enabled: true, Name: 'shift', Menu: 'chat' } })).toMatchObject({
      config: { DutyCommand: { Enabled: true, Name: 'shift', Menu: 'chat' } },
      problems: [],
    });
    const { config, problems } = validateConfig({ DutyCommand: { Enabled: 'yes', Name: 'dutyrefresh', Menu: 'nui' } });
    expect(config.DutyCommand).toEqual({ Enabled: false, Name: 'duty', Menu: 'auto' });
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining("DutyCommand.Enabled = 'yes' is not valid"),
      "DutyCommand.Name = 'dutyrefresh' is not valid (/dutyrefresh is one of the bridge's own commands); using the default 'duty'",
      expect.stringContaining("DutyCommand.Menu = 'nui' is not valid"),
    ]);
    expect(validateConfig({ DutyCommand: { Name: '/duty' } }).problems[0]?.message).toContain(
      'a command name is a letter, then up to 31 letters, digits, _ or -, without the /',
    );
  });
});
