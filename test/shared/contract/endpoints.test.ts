import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_BYTES } from '../../../mock-panel';
import {
  DepartmentsResponseSchema,
  DutyResponseSchema,
  departmentsPath,
  dutyPath,
  ErrorBodySchema,
  type ErrorCode,
  errorStatus,
} from '../../../shared/contract';
import {
  LSPD,
  NO_DEPARTMENTS,
  ONE_DEPARTMENT,
  SAFR,
  TWO_DEPARTMENTS,
  UNKNOWN_USER,
} from '../../mock-panel/support/demo-users';
import { createFakeClock } from '../../mock-panel/support/fake-clock';
import { bodyOf, type RunningPanel, TRANSPORTS } from '../../mock-panel/support/panel-transports';

async function expectError(response: Response, code: ErrorCode, field?: string) {
  expect(response.status).toBe(errorStatus(code));
  const body = await bodyOf(response, ErrorBodySchema);
  expect(body.error).toBe(code);
  expect(body.field).toBe(field);
  return body;
}

describe.each(TRANSPORTS)('the /api/leo contract, $name', (transport) => {
  let running: RunningPanel;
  const unexpectedErrors: unknown[] = [];

  // A small budget so the 429 is cheap to reach; the clock stands still so Retry-After is exact.
  const clock = createFakeClock();
  const rateLimit = { limit: 20, windowMs: 30_000 };

  beforeAll(async () => {
    running = await transport.start({
      now: clock.now,
      rateLimit,
      onUnexpectedError: (error) => unexpectedErrors.push(error),
    });
  });

  async function useUpBudget() {
    for (let sent = 0; sent < rateLimit.limit; sent++) await running.client.get(departmentsPath(NO_DEPARTMENTS));
  }
  afterEach(() => {
    running.panel.controls.reset();
    unexpectedErrors.length = 0;
    vi.restoreAllMocks();
  });
  afterAll(() => running.stop());

  describe('GET /api/leo/user/:chatId/departments', () => {
    it('200: a user in two departments gets both, each with their rank and department data', async () => {
      const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
      expect(response.status).toBe(200);
      const body = await bodyOf(response, DepartmentsResponseSchema);
      expect(body.user).toEqual({ chatId: TWO_DEPARTMENTS, name: 'Alex Mercer' });
      expect(body.departments.map((department) => [department.slug, department.rank.name])).toEqual([
        ['lspd', 'Sergeant'],
        ['bcso', 'Deputy'],
      ]);
      expect(body.departments[0]?.data?.vehicles).toContainEqual({ model: 'police3', label: 'Interceptor' });
    });

    it('200: a 19-digit id works like an 18-digit one', async () => {
      const body = await bodyOf(await running.client.get(departmentsPath(ONE_DEPARTMENT)), DepartmentsResponseSchema);
      expect(body.departments.map((department) => department.id)).toEqual([SAFR.id]);
    });

    it('200 with an empty list: a known user with no departments', async () => {
      const response = await running.client.get(departmentsPath(NO_DEPARTMENTS));
      expect(response.status).toBe(200);
      expect((await bodyOf(response, DepartmentsResponseSchema)).departments).toEqual([]);
    });

    it('401: no token, and a wrong token', async () => {
      await expectError(
        await running.client.get(departmentsPath(TWO_DEPARTMENTS), { headers: { authorization: undefined } }),
        'unauthorized',
      );
      await expectError(
        await running.client.get(departmentsPath(TWO_DEPARTMENTS), { headers: { authorization: 'Bearer nope' } }),
        'unauthorized',
      );
    });

    it('404: a malformed id, and a well-formed id nobody has', async () => {
      await expectError(await running.client.get(departmentsPath('12345')), 'malformed_chat_id');
      // A percent-escape that does not decode is still just a malformed id.
      await expectError(await running.client.get('/api/leo/user/%E0%A4/departments'), 'malformed_chat_id');
      await expectError(await running.client.get(departmentsPath(UNKNOWN_USER)), 'user_not_found');
    });

    it('404: an unknown route under /api/leo', async () => {
      await expectError(await running.client.get('/api/leo/users'), 'not_found');
    });

    it('429: over the limit, with Retry-After', async () => {
      await useUpBudget();
      const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
      await expectError(response, 'rate_limited');
      expect(response.headers.get('retry-after')).toBe('30');
    });

    it('500: an unexpected exception answers internal_error without a stack trace', async () => {
      vi.spyOn(running.panel.store.users, 'find').mockImplementation(() => {
        throw new Error('database exploded at /srv/panel/db.ts:42');
      });
      const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
      const body = await expectError(response, 'internal_error');
      expect(JSON.stringify(body)).not.toMatch(/exploded|db\.ts|at /);
      expect(unexpectedErrors).toHaveLength(1);
    });
  });

  describe('POST /api/leo/duty/:action', () => {
    const dutyOn = { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id, rankId: LSPD.sergeant };

    it('200: on, then off, each with the state now in effect', async () => {
      const on = await bodyOf(await running.client.post(dutyPath('on'), dutyOn), DutyResponseSchema);
      expect(on).toMatchObject({ changed: true, duty: { onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant } });
      expect(on.duty.since).not.toBeNull();
      const off = await bodyOf(
        await running.client.post(dutyPath('off'), { chatId: TWO_DEPARTMENTS }),
        DutyResponseSchema,
      );
      expect(off).toEqual({
        ok: true,
        changed: true,
        duty: { chatId: TWO_DEPARTMENTS, onDuty: false, departmentId: null, rankId: null, since: null },
      });
    });

    it('400: an action other than on or off', async () => {
      await expectError(await running.client.post('/api/leo/duty/toggle', dutyOn), 'invalid_action');
    });

    it('400: each invalid field is named by its code and in `field`', async () => {
      const cases: [Record<string, unknown>, ErrorCode, string][] = [
        [{ ...dutyOn, chatId: '12' }, 'invalid_chat_id', 'chatId'],
        [{ ...dutyOn, departmentId: 'lspd' }, 'invalid_department_id', 'departmentId'],
        [{ ...dutyOn, rankId: 1.5 }, 'invalid_rank_id', 'rankId'],
        [{ ...dutyOn, serverId: -1 }, 'invalid_server_id', 'serverId'],
        [{ ...dutyOn, playerName: '' }, 'invalid_player_name', 'playerName'],
      ];
      for (const [body, code, field] of cases) {
        await expectError(await running.client.post(dutyPath('on'), body), code, field);
      }
      await expectError(await running.client.post(dutyPath('off'), {}), 'invalid_chat_id', 'chatId');
    });

    it('400: a body that is not JSON, or not an object', async () => {
      const notJson = await running.client.request(dutyPath('on'), {
        method: 'post',
        body: '{"chatId":',
        headers: { 'content-type': 'application/json' },
      });
      await expectError(notJson, 'invalid_json');
      await expectError(await running.client.post(dutyPath('on'), [dutyOn]), 'invalid_json');
    });

    it('400: refused when the user is not in the department, or the rank is not theirs', async () => {
      await expectError(
        await running.client.post(dutyPath('on'), { chatId: ONE_DEPARTMENT, departmentId: LSPD.id, rankId: 1 }),
        'not_member',
      );
      await expectError(
        await running.client.post(dutyPath('on'), { ...dutyOn, rankId: LSPD.officer }),
        'rank_mismatch',
      );
    });

    it('401: no token, and a wrong token', async () => {
      await expectError(
        await running.client.post(dutyPath('on'), dutyOn, { headers: { authorization: undefined } }),
        'unauthorized',
      );
      await expectError(
        await running.client.post(dutyPath('off'), dutyOn, { headers: { authorization: 'Bearer wrong' } }),
        'unauthorized',
      );
    });

    it('404: an unknown user, and a department the panel does not have', async () => {
      await expectError(
        await running.client.post(dutyPath('on'), { ...dutyOn, chatId: UNKNOWN_USER }),
        'user_not_found',
      );
      await expectError(await running.client.post(dutyPath('off'), { chatId: UNKNOWN_USER }), 'user_not_found');
      await expectError(
        await running.client.post(dutyPath('on'), { ...dutyOn, departmentId: 99 }),
        'department_not_found',
      );
    });

    it('405: a GET on a duty path names the methods the path takes', async () => {
      const response = await running.client.get(dutyPath('on'));
      await expectError(response, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    });

    it('413: a body over the size limit', async () => {
      const huge = { ...dutyOn, playerName: 'x'.repeat(MAX_BODY_BYTES) };
      await expectError(await running.client.post(dutyPath('on'), huge), 'payload_too_large');
    });

    it('415: a body that is not declared as JSON', async () => {
      const response = await running.client.request(dutyPath('on'), {
        method: 'post',
        body: JSON.stringify(dutyOn),
        headers: { 'content-type': 'text/plain' },
      });
      await expectError(response, 'unsupported_media_type');
    });

    it('429: over the limit, with Retry-After', async () => {
      await useUpBudget();
      const response = await running.client.post(dutyPath('on'), dutyOn);
      await expectError(response, 'rate_limited');
      expect(response.headers.get('retry-after')).toBe('30');
    });

    it('500: an unexpected exception answers internal_error without a stack trace', async () => {
      vi.spyOn(running.panel.store.duty, 'goOn').mockImplementation(() => {
        throw new TypeError("Cannot read properties of undefined (reading 'rankId')");
      });
      const body = await expectError(await running.client.post(dutyPath('on'), dutyOn), 'internal_error');
      expect(JSON.stringify(body)).not.toMatch(/rankId|TypeError/);
      expect(unexpectedErrors).toHaveLength(1);
    });
  });

  it('every answer, success or error, carries `ok` and the rate-limit headers', async () => {
    const responses = [
      await running.client.get(departmentsPath(TWO_DEPARTMENTS)),
      await running.client.get(departmentsPath('x')),
      await running.client.post(dutyPath('on'), {}, { headers: { authorization: 'Bearer wrong' } }),
      await running.client.get('/api/leo'),
    ];
    for (const response of responses) {
      expect(typeof ((await response.json()) as { ok: unknown }).ok).toBe('boolean');
      expect(response.headers.get('ratelimit-limit')).toBe(String(rateLimit.limit));
    }
  });
});
