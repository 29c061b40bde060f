import { describe, expect, it } from 'vitest';
import { defaultConfig, parseDepartmentJobs, validateConfig } from '../../../shared/config/index.js';

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
    expect(parsed).toEqual({ value: { bcso: { Grades: { 4: 0, 5: 2 } } }, problems: [] });
  });

  const KEPT = { bcso: { Job: 'sheriff', Grades: { 4: 0 } } };
  it.each([
    [
      { lspd: { job: 'police', Grades: [0] } },
      { Grades: { 1: 0 } },
      'Integrations.DepartmentJobs.lspd.job is not a known option and is ignored (a department has Job and Grades; ' +
        'did you mean Job?)',
    ],
    [
      { lspd: { Job: '', Grades: [0] } },
      { Grades: { 1: 0 } },
      "Integrations.DepartmentJobs.lspd.Job = '' is not valid (must be a job name); using the slug 'lspd'",
    ],
    [
      { lspd: { Job: 'police', Grades: { one: 1, 2: 1 } } },
      { Job: 'police', Grades: { 2: 1 } },
      "Integrations.DepartmentJobs.lspd.Grades['one'] = 1 is not valid (the key must be a rank id, a whole number " +
        'from 1); the entry is ignored',
    ],
    [
      { lspd: { Job: 'police', Grades: [0, -1, 2] } },
      { Job: 'police', Grades: { 1: 0, 3: 2 } },
      'Integrations.DepartmentJobs.lspd.Grades[2] = -1 is not valid (must be a grade, a whole number from 0); ' +
        "rank 2 gets the framework's lowest grade",
    ],
    [
      { lspd: { Job: 'police', Grades: 'high' } },
      { Job: 'police', Grades: {} },
      "Integrations.DepartmentJobs.lspd.Grades = 'high' is not valid (must be a table of rank id = grade, e.g. " +
        "{ [1] = 0, [2] = 1 }); every rank of lspd gets the framework's lowest grade",
    ],
  ])(
    'refuses only the wrong part of %j, naming it, what is allowed and what is used instead',
    (lspd, kept, message) => {
      const { config, problems } = validateConfig({ Integrations: { DepartmentJobs: { ...lspd, ...KEPT } } });
      expect(config.Integrations.DepartmentJobs).toEqual({ lspd: kept, ...KEPT });
      expect(problems).toEqual([{ key: message.split(/ [=i]/)[0], kind: expect.any(String), message }]);
    },
  );

  it('drops a department that is not a table, and only it, suggesting the table meant', () => {
    const { config, problems } = validateConfig({ Integrations: { DepartmentJobs: { lspd: 'police', ...KEPT } } });
    expect(config.Integrations.DepartmentJobs).toEqual(KEPT);
    expect(problems.map((problem) => problem.message)).toEqual([
      "Integrations.DepartmentJobs.lspd = 'police' is not valid (must be a table like { Job = 'police', Grades = " +
        "{ [1] = 0 } }; did you mean { Job = 'police' }?); lspd gets its slug as the job",
    ]);
  });

  it('refuses a list in place of the mapping, saying what is used instead', () => {
    const { config, problems } = validateConfig({ Integrations: { DepartmentJobs: ['police'] } });
    expect(config.Integrations.DepartmentJobs).toEqual({});
    expect(problems.map((problem) => problem.message)).toEqual([
      'Integrations.DepartmentJobs = a list is not valid (must be a table keyed by department slug, e.g. ' +
        "{ lspd = { Job = 'police' } }); using none: every department gets its slug as the job",
    ]);
  });

  it('keeps the other Integrations keys when the mapping is bad', () => {
    const { config } = validateConfig({
      Integrations: { JobFramework: 'esx', FallbackJob: 'civilian', DepartmentJobs: { lspd: 5 } },
    });
    expect(config.Integrations).toMatchObject({ JobFramework: 'esx', FallbackJob: 'civilian', DepartmentJobs: {} });
  });
});
