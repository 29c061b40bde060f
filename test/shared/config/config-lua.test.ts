import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { configShape, defaultConfig, validateConfig } from '../../../shared/config/index.js';

const configLua = readFileSync(join(import.meta.dirname, '..', '..', '..', 'config.lua'), 'utf8');

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

describe('the READMEs on config.lua', () => {
  it("say FallbackJob is given off duty only when the framework no longer has the player's own job", () => {
    // Off duty a player gets their own job back (server/integrations/jobs/); the fallback is for a job deleted meanwhile.
    expect(configLua).toMatch(
      /-- ESX and QBCore only: the job a player gets off duty when the framework no longer has/,
    );
    for (const readme of ['README.md', 'PACKAGE-README.md']) {
      const text = readFileSync(join(import.meta.dirname, '..', '..', '..', readme), 'utf8');
      const row = text.split('\n').find((line) => line.startsWith('| `Config.Integrations.FallbackJob`')) ?? '';
      expect(row, readme).toContain('no longer has');
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

describe('a refused value in config.lua', () => {
  const messageFor = (raw: unknown) => validateConfig(raw).problems.map((problem) => problem.message);

  it("names the frameworks allowed and the one meant by a framework's resource name", () => {
    expect(messageFor({ Integrations: { JobFramework: 'qb-core' } })).toEqual([
      "Integrations.JobFramework = 'qb-core' is not valid (must be false, 'auto', 'esx', 'qbcore', 'qbox' or " +
        "'ox_core'; did you mean 'qbcore'?); using the default false",
    ]);
    expect(messageFor({ Integrations: { JobFramework: 'qbx_core' } })[0]).toContain("did you mean 'qbox'?");
    expect(messageFor({ Integrations: { JobFramework: 'es_extended' } })[0]).toContain("did you mean 'esx'?");
    expect(messageFor({ Integrations: { JobFramework: 'QBCore' } })[0]).toContain("did you mean 'qbcore'?");
    expect(messageFor({ Integrations: { JobFramework: 'vrp' } })[0]).not.toContain('did you mean');
    expect(messageFor({ LogLevel: 'verbose' })).toEqual([
      "LogLevel = 'verbose' is not valid (must be 'error', 'warn', 'info' or 'debug'); using the default 'info'",
    ]);
  });

  it('says what a number must be, and the value meant when it is written as text or in seconds', () => {
    expect(messageFor({ RequestTimeoutMs: 100 })).toEqual([
      'RequestTimeoutMs = 100 is not valid (must be a whole number of milliseconds from 500 to 60000); using the ' +
        'default 5000',
    ]);
    expect(messageFor({ RequestTimeoutMs: '2500' })[0]).toContain('did you mean 2500?');
    expect(messageFor({ RefreshIntervalMs: 300 })[0]).toContain('did you mean 300000?');
    expect(messageFor({ Metrics: 'yes' })[0]).toContain('(must be true or false; did you mean true?)');
    expect(messageFor({ AcePermissions: 0 })[0]).toContain('did you mean false?');
    expect(messageFor({ Integrations: { JobFramework: true } })[0]).toContain("did you mean 'auto'?");
    expect(messageFor({ DutyCommand: { Enabled: 'true' } })).toEqual([
      "DutyCommand.Enabled = 'true' is not valid (must be true or false; did you mean true?); using the default false",
    ]);
    // The 15 minutes players asked for (op-framework #2581) are past what the bridge keeps a shift open for.
    expect(messageFor({ ResumeWindowMs: 900_000 })).toEqual([
      'ResumeWindowMs = 900000 is not valid (must be a whole number of milliseconds from 0 to 600000); using the ' +
        'default 0',
    ]);
    expect(messageFor({ ResumeWindowMs: '300000' })[0]).toContain('did you mean 300000?');
    expect(messageFor({ RestartNotice: 'no' })[0]).toContain('(must be true or false; did you mean false?)');
  });

  it('names the keys a table has, and the likely one, for a key it does not know', () => {
    expect(messageFor({ RefreshIntervallMs: 1000 })[0]).toMatch(
      /^RefreshIntervallMs is not a known option and is ignored \(.*did you mean RefreshIntervalMs\?\)$/,
    );
    expect(messageFor({ Integrations: { Esx: true } })).toEqual([
      'Integrations.Esx is not a known option and is ignored (Integrations has JobFramework, FallbackJob, ' +
        'FallbackGrade, DepartmentJobs, RcorePolice)',
    ]);
  });

  it('names the keys a table holds when it is given a value instead', () => {
    expect(messageFor({ Integrations: 'esx' })).toEqual([
      "Integrations = 'esx' is not valid (must be a table of JobFramework, FallbackJob, FallbackGrade, " +
        'DepartmentJobs, RcorePolice); using the default of each',
    ]);
  });
});
