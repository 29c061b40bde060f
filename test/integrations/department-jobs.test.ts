import { describe, expect, it } from 'vitest';
import { defaultConfig, parseDepartmentJobs, validateConfig } from '../../shared/config/index.js';

describe('Config.Integrations.DepartmentJobs', () => {
  it('is an empty mapping by default, and an empty Lua table (which crosses msgpack as []) is one too', () => {
    expect(defaultConfig().Integrations.DepartmentJobs).toEqual({});
    expect(validateConfig({ Integrations: { DepartmentJobs: [] } }).config.Integrations.DepartmentJobs).toEqual({});
  });

  it('reads Grades written as a Lua sequence (an array after msgpack) as rank id 1, 2, ... = grade', () => {
    const { config, problems } = validateConfig({
      Integrations: { DepartmentJobs: { lspd: { Job: 'police', Grades: [0, 1, 2] }, bcso: { Job: 'sheriff' } } },
    });
    expect(problems).toEqual([]);
    expect(config.Integrations.DepartmentJobs).toEqual({
      lspd: { Job: 'police', Grades: { 1: 0, 2: 1, 3: 2 } },
      bcso: { Job: 'sheriff', Grades: {} },
    });
  });

  it('reads Grades with gaps (an object with string keys after msgpack) by rank id', () => {
    const parsed = parseDepartmentJobs({ bcso: { Grades: { '4': 0, '5': 2 } } });
    expect(parsed).toEqual({ ok: true, value: { bcso: { Grades: { 4: 0, 5: 2 } } } });
  });

  it.each([
    [{ lspd: { job: 'police' } }, 'lspd.job is not a known option (Job, Grades)'],
    [{ lspd: { Job: '' } }, 'lspd.Job must be a job name'],
    [{ lspd: { Job: 'police', Grades: { one: 1 } } }, 'lspd.Grades has the key one, which is not a rank id'],
    [{ lspd: { Grades: [0, -1] } }, 'lspd.Grades[2] must be a whole number from 0'],
    [{ lspd: { Grades: [0.5] } }, 'lspd.Grades[1] must be a whole number from 0'],
    [{ lspd: 'police' }, "lspd must be a table like { Job = 'police' }"],
    [['police'], 'must be a table keyed by department slug'],
  ])('refuses %j, naming the entry, and falls back to no mapping', (value, message) => {
    const { config, problems } = validateConfig({ Integrations: { DepartmentJobs: value } });
    expect(config.Integrations.DepartmentJobs).toEqual({});
    expect(problems).toEqual([expect.objectContaining({ key: 'Integrations.DepartmentJobs', kind: 'invalid' })]);
    expect(problems[0]?.message).toContain(message);
  });

  it('keeps the other Integrations keys when the mapping is bad', () => {
    const { config } = validateConfig({
      Integrations: { JobFramework: 'esx', FallbackJob: 'civilian', DepartmentJobs: { lspd: 5 } },
    });
    expect(config.Integrations).toMatchObject({ JobFramework: 'esx', FallbackJob: 'civilian', DepartmentJobs: {} });
  });
});
