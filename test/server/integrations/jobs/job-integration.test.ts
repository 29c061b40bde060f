import { describe, expect, it } from 'vitest';
import { LSPD, offDuty, onDuty } from '../support/duty-changes.js';
import { jobSetup } from '../support/job-setup.js';

// A framework whose exports fail: what FiveM hands the caller is an Error (a throw) or a rejection with a string.
describe('the job framework integration when a framework call fails', () => {
  it('never throws into the bridge, and says so once with the reason', () => {
    const { resources, jobs, warnings } = jobSetup('qbox');
    resources.start('qbx_core', {
      GetPlayer: () => ({
        PlayerData: { citizenid: 'CID3', job: { name: 'unemployed', grade: { level: 0 } }, jobs: [] },
      }),
      AddPlayerToJob: () => {
        throw new Error('boom');
      },
    });
    expect(() => jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer))).not.toThrow();
    expect(() => jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer))).not.toThrow();
    expect(() => jobs.dutyChanged(offDuty(3))).not.toThrow();
    expect(warnings()).toEqual([
      expect.stringContaining(
        'Qbox could not give player 3 the job lspd (grade 0): An error occurred while calling export AddPlayerToJob of resource qbx_core',
      ),
    ]);
  });

  it('reports a rejected call (ox_core answering from its database) once, with the reason', async () => {
    const { resources, jobs, warnings } = jobSetup('ox_core');
    resources.start('ox_core', {
      GetPlayer: () => ({ charId: 7 }),
      CallPlayer: (_src: number, method: string) => {
        if (method === 'getGroups') return [];
        if (method === 'setGroup') return Promise.reject('database unavailable');
        return null;
      },
    });
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings()).toEqual([
      expect.stringContaining('ox_core could not give player 3 the group lspd (grade 1): database unavailable'),
    ]);
  });
});

describe('the job framework integration per player', () => {
  it('holds nothing for a player who left, once their framework calls have ended', async () => {
    const { resources, jobs } = jobSetup('ox_core');
    const answers: Array<() => void> = [];
    resources.start('ox_core', {
      GetPlayer: () => ({ charId: 7 }),
      CallPlayer: (_src: number, method: string) => {
        if (method === 'getGroups') return [];
        // ox_core answers from its database: later.
        return new Promise<null>((resolve) => answers.push(() => resolve(null)));
      },
    });
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(offDuty(3, 'dropped'));
    jobs.playerDropped?.(3);
    // The give is still waiting for ox_core; the off and the drop wait behind it.
    expect(jobs.footprint?.()).toMatchObject({ lanes: 1 });
    while (answers.length > 0) {
      for (const answer of answers.splice(0)) answer();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(jobs.footprint?.()).toEqual({ lanes: 0, onDuty: 0, waitingForCharacter: 0 });
  });
});
