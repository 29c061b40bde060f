import type { FakeResources } from './fake-resources.js';

interface Job {
  name: string;
  grade: number;
  onDuty: boolean;
}

const JOBS: Record<string, number> = { unemployed: 0, police: 3, lspd: 2, bcso: 1, sheriff: 1, mechanic: 0 };

/** Players with a job, as a framework keeps them; `grades` is the highest grade of each known job. */
export class FakeJobs {
  readonly players = new Map<number, Job>();
  constructor(readonly grades: Record<string, number> = JOBS) {}
  load(src: number, name = 'unemployed', grade = 0): void {
    this.players.set(src, { name, grade, onDuty: false });
  }
  knows(name: string, grade: number): boolean {
    const highest = this.grades[name];
    return highest !== undefined && Number.isInteger(grade) && grade >= 0 && grade <= highest;
  }
  job(src: number): Job | undefined {
    return this.players.get(src);
  }
}

/** es_extended: setJob/getJob on the xPlayer, RunStaticPlayerMethod unless `legacy`. */
export function fakeEsx(resources: FakeResources, options: { legacy?: boolean } = {}): FakeJobs {
  const jobs = new FakeJobs();
  const xPlayer = (src: number) => ({
    setJob(name: string, grade: number, onDuty?: boolean) {
      if (!jobs.knows(name, grade)) return; // ESX prints a warning and keeps the job
      jobs.players.set(src, { name, grade, onDuty: name === 'unemployed' ? false : (onDuty ?? true) });
    },
    getJob: () => ({ ...jobs.players.get(src) }),
  });
  const exports: Record<string, (...args: never[]) => unknown> = {
    getSharedObject: () => ({
      GetPlayerFromId: resources.ref('es_extended', (src: number) => (jobs.players.has(src) ? xPlayer(src) : null)),
    }),
  };
  if (!options.legacy) {
    exports.RunStaticPlayerMethod = (src: number, method: string, ...args: unknown[]) => {
      if (!jobs.players.has(src)) return undefined;
      const player = xPlayer(src) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return player[method]?.(...args);
    };
  }
  resources.start('es_extended', exports);
  return jobs;
}

/** The duty a job starts with when set (QBCore's and Qbox's `defaultDuty`). */
const DEFAULT_DUTY: Record<string, boolean> = { unemployed: true };

/** qb-core: Player.Functions.SetJob/SetJobDuty, from the GetPlayer export unless `classic`, and GetCoreObject. */
export function fakeQbCore(resources: FakeResources, options: { classic?: boolean } = {}): FakeJobs {
  const jobs = new FakeJobs();
  const functions = (src: number) => ({
    SetJob(name: string, grade: number) {
      const job = name.toLowerCase();
      if (jobs.grades[job] === undefined) return false;
      jobs.players.set(src, {
        name: job,
        grade: jobs.knows(job, grade) ? grade : 0,
        onDuty: DEFAULT_DUTY[job] ?? false,
      });
      return true;
    },
    SetJobDuty(onDuty: boolean) {
      const job = jobs.players.get(src);
      if (job) job.onDuty = !!onDuty;
    },
  });
  const getPlayer = (src: number) =>
    jobs.players.has(src) ? { PlayerData: { source: src }, Functions: functions(src) } : null;
  const exports: Record<string, (...args: never[]) => unknown> = {
    GetCoreObject: () => ({ Functions: { GetPlayer: resources.ref('qb-core', getPlayer) } }),
  };
  if (!options.classic) exports.GetPlayer = getPlayer;
  resources.start('qb-core', exports);
  return jobs;
}

export interface FakeQbox extends FakeJobs {
  failNextSetJob(code: string, message: string): void;
}

/** qbx_core: GetPlayer, SetJob (true | false | [false, { code, message }], throws for an unknown player), SetJobDuty. */
export function fakeQbox(resources: FakeResources): FakeQbox {
  let failNext: { code: string; message: string } | undefined;
  const jobs = Object.assign(new FakeJobs(), {
    failNextSetJob(code: string, message: string) {
      failNext = { code, message };
    },
  });
  resources.start('qbx_core', {
    GetPlayer: (src: number) => (jobs.players.has(src) ? { PlayerData: { source: src } } : null),
    SetJob(src: number, name: string, grade: number) {
      if (!jobs.knows(name, grade)) return false;
      if (!jobs.players.has(src)) throw new Error("attempt to index a nil value (local 'player')");
      if (failNext) {
        const failure = failNext;
        failNext = undefined;
        return [false, failure];
      }
      jobs.players.set(src, { name, grade, onDuty: DEFAULT_DUTY[name] ?? false });
      return true;
    },
    SetJobDuty(src: number, onDuty: boolean) {
      const job = jobs.players.get(src);
      if (job) job.onDuty = !!onDuty;
    },
  });
  return jobs;
}

export class FakeOxCore {
  readonly groups = new Map<number, Map<string, number>>();
  readonly withoutCharacter = new Set<number>();
  /** The highest grade of each group. */
  readonly known: Record<string, number> = { police: 4, lspd: 3, bcso: 2 };
  /** Makes the next CallPlayer reject with this reason (a string, as an async export's rejection is). */
  rejectNext: string | undefined;
  load(src: number, options: { character?: boolean } = {}): void {
    this.groups.set(src, new Map());
    if (options.character === false) this.withoutCharacter.add(src);
  }
  of(src: number): Record<string, number> {
    return Object.fromEntries(this.groups.get(src) ?? []);
  }
}

/** ox_core: CallPlayer(src, 'setGroup', name, grade) answering a Promise after `delayMs` (a database write). */
export function fakeOxCore(resources: FakeResources, delayMs = 50): FakeOxCore {
  const ox = new FakeOxCore();
  const setGroup = (src: number, name: string, grade = 0): boolean | undefined => {
    if (ox.withoutCharacter.has(src)) return false;
    const highest = ox.known[name];
    if (highest === undefined || grade > highest) return undefined;
    const groups = ox.groups.get(src) as Map<string, number>;
    if ((groups.get(name) ?? 0) === grade) return undefined;
    if (grade > 0) groups.set(name, grade);
    else groups.delete(name);
    return true;
  };
  resources.start('ox_core', {
    CallPlayer(src: number, method: string, name: string, grade: number) {
      if (!ox.groups.has(src) || method !== 'setGroup') return undefined;
      const reason = ox.rejectNext;
      ox.rejectNext = undefined;
      return new Promise((resolve, reject) =>
        setTimeout(() => (reason === undefined ? resolve(setGroup(src, name, grade)) : reject(reason)), delayMs),
      );
    },
  });
  return ox;
}
