import { describe, expect, it } from 'vitest';
import type { DutyCall } from '../../../server/duty/duty-call.js';
import { OutboxFaultReports } from '../../../server/duty/outbox-fault-reports.js';
import { createLogger } from '../../../server/kernel/log.js';
import type { PanelFailure } from '../../../server/panel/panel-result.js';

const ALEX = '284619375016482817';
const OFF: DutyCall = { action: 'off', body: { chatId: ALEX, departmentId: 1 } };
const ON: DutyCall = {
  action: 'on',
  body: { chatId: ALEX, departmentId: 1, rankId: 2, serverId: 7, playerName: 'Alex' },
};
const failure = (kind: PanelFailure['kind'], status?: number, code?: string): PanelFailure => ({
  kind,
  message: `${kind} answer`,
  ...(status === undefined ? {} : { status }),
  ...(code === undefined ? {} : { code }),
});

function reports() {
  const lines: string[] = [];
  const logger = createLogger({ print: (line) => lines.push(line) });
  return { reports: new OutboxFaultReports(logger), lines };
}

describe('the outbox’s fault reports', () => {
  it('tells a fault once per kind however many calls meet it, and once more after a call got through', () => {
    const { reports: told, lines } = reports();
    told.retrying(OFF, failure('invalid_response', 502), 1_000);
    told.retrying(ON, failure('invalid_response', 502), 2_000);
    told.retrying(OFF, failure('not_found', 404), 1_000);
    expect(lines.filter((line) => line.includes('do not get through'))).toEqual([
      expect.stringContaining('invalid_response answer (HTTP 502); they stay queued'),
      expect.stringContaining('not_found answer (HTTP 404)'),
    ]);
    told.delivered();
    told.delivered();
    told.retrying(OFF, failure('invalid_response', 502), 1_000);
    expect(lines.filter((line) => line.includes('get through to the panel again'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('do not get through'))).toHaveLength(3);
  });

  it('leaves what the circuit breaker and the scheduler tell to them', () => {
    const { reports: told, lines } = reports();
    for (const kind of ['timeout', 'network', 'server_error', 'rate_limited'] as const) {
      told.retrying(OFF, failure(kind), 1_000);
    }
    told.delivered();
    expect(lines).toEqual([]);
  });

  it('says a refused call is dropped, and an off for an account the panel no longer knows ended with it', () => {
    const { reports: told, lines } = reports();
    told.refused(ON, failure('rejected', 400, 'rank_mismatch'));
    told.refused(OFF, failure('not_found', 404, 'user_not_found'));
    expect(lines).toEqual([
      expect.stringMatching(/WARN.*refused duty on for chat id \d+: rank_mismatch .*the call is dropped/),
      expect.stringMatching(/INFO.*no longer knows chat id \d+: its duty there ended with the account/),
    ]);
  });
});
