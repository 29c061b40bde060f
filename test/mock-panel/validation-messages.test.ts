import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BodyField,
  DutyOffBodySchema,
  DutyOnBodySchema,
  dutyPath,
  ErrorBodySchema,
  FIELD_ERROR_CODES,
} from '../../shared/contract';
import { LSPD, TWO_DEPARTMENTS } from './support/demo-users';
import { bodyOf, type RunningPanel, TRANSPORTS } from './support/panel-transports';

// A 400 for a body field says, in words a person reads, which field and what it must be: the field's description
// in the contract, never zod's own wording ("Invalid input: expected string, received undefined").

const ZOD_WORDS = /Invalid input|expected \w+, received|Too (small|big)|invalid_type|Invalid string/i;

const valid = {
  chatId: TWO_DEPARTMENTS,
  departmentId: LSPD.id,
  rankId: LSPD.sergeant,
  serverId: 3,
  playerName: 'Alex',
};

const requests = [
  { action: 'on', schema: DutyOnBodySchema },
  { action: 'off', schema: DutyOffBodySchema },
] as const;

const fields = requests.flatMap(({ action, schema }) =>
  Object.entries(schema._zod.def.shape).map(([field, fieldSchema]) => ({
    action,
    field: field as BodyField,
    required: !z.safeParse(fieldSchema, undefined).success,
    rule: z.globalRegistry.get(fieldSchema)?.description ?? '',
  })),
);

/** The description as the message quotes it: first letter lower case, no closing full stop. */
const quoted = (rule: string) => rule.charAt(0).toLowerCase() + rule.slice(1).replace(/\.$/, '');

describe('every request-body field of the contract', () => {
  it.each(fields)('$action $field has a description to quote', ({ rule }) => {
    expect(rule).toMatch(/^[A-Z].{10,}\.$/);
  });
});

describe.each(TRANSPORTS)('field refusals of the duty endpoint, $name', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start();
  });
  afterAll(() => running.stop());

  const refusal = async (action: 'on' | 'off', body: Record<string, unknown>) => {
    const response = await running.client.post(dutyPath(action), body);
    expect(response.status).toBe(400);
    return bodyOf(response, ErrorBodySchema);
  };

  it('the issue\'s own case reads "chatId is required: ... 18 to 19 ASCII digits"', async () => {
    const { chatId: _, ...rest } = valid;
    const body = await refusal('on', rest);
    expect(body.message).toBe('chatId is required: a chat-platform user id, 18 to 19 ASCII digits');
  });

  it.each(fields.filter(({ required }) => required))('$action: a missing $field', async ({ action, field, rule }) => {
    const { [field]: _, ...rest } = valid;
    const body = await refusal(action, rest);
    expect(body).toMatchObject({ error: FIELD_ERROR_CODES[field], field });
    expect(body.message).toBe(`${field} is required: ${quoted(rule)}`);
  });

  it.each(fields)('$action: a $field of the wrong type', async ({ action, field, rule }) => {
    const body = await refusal(action, { ...valid, [field]: { nested: true } });
    expect(body).toMatchObject({ error: FIELD_ERROR_CODES[field], field });
    expect(body.message).toBe(`${field} is invalid (got {"nested":true}): ${quoted(rule)}`);
    expect(body.message).not.toMatch(ZOD_WORDS);
  });

  it.each([
    ['on', 'chatId', '12345', '"12345"'],
    ['on', 'departmentId', 0, '0'],
    ['on', 'rankId', 2.5, '2.5'],
    ['on', 'serverId', '3', '"3"'],
    ['on', 'playerName', 'x'.repeat(300), `"${'x'.repeat(39)}…`],
    ['off', 'departmentId', -1, '-1'],
  ] as const)('%s: %s out of its rule, shown as sent', async (action, field, value, shown) => {
    const body = await refusal(action, { ...valid, [field]: value });
    expect(body.field).toBe(field);
    expect(body.message).toMatch(
      new RegExp(`^${field} is invalid \\(got ${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): `),
    );
    expect(body.message).not.toMatch(ZOD_WORDS);
  });
});
