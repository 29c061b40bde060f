import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMockPanelData } from '../../../mock-panel';
import { ChatIdSchema, DepartmentsResponseSchema, departmentsPath, ErrorBodySchema } from '../../../shared/contract';
import { bodyOf, type RunningPanel, TRANSPORTS } from '../../mock-panel/support/panel-transports';

const KNOWN_IDS = loadMockPanelData().users.map((user) => user.chatId);
const RUNS = { seed: 0x2b1d6e, numRuns: 60 };

const digit = fc.constantFrom(...'0123456789');
const digits = (minLength: number, maxLength: number) =>
  fc.array(digit, { minLength, maxLength }).map((chars) => chars.join(''));
/** Digits of other scripts: Arabic-Indic, Devanagari, fullwidth. `\d`-style checks in some dialects accept them. */
const unicodeDigit = fc.constantFrom('٣', '٧', '३', '९', '３', '８');

/** Everything that is not 18-19 ASCII digits, weighted towards the near misses. */
const malformedChatId = fc
  .oneof(
    digits(0, 17),
    digits(20, 30),
    fc.tuple(digits(17, 18), unicodeDigit).map(([ascii, other]) => ascii + other),
    fc.tuple(digits(18, 19), fc.constantFrom(' ', '\t', '\n', '\u00a0')).map(([id, space]) => `${space}${id}`),
    fc.tuple(digits(18, 19), fc.constantFrom('-1', 'e3', '.0', '/x', '?a=1', '#x')).map(([id, tail]) => id + tail),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  )
  .filter((candidate) => !ChatIdSchema.safeParse(candidate).success);

const unknownChatId = digits(18, 19).filter((candidate) => !KNOWN_IDS.includes(candidate));

describe.each(TRANSPORTS)('chat ids on the departments endpoint, $name', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start({ rateLimit: { limit: 1_000_000 } });
  });
  afterAll(() => running.stop());

  it('any id that is not 18-19 ASCII digits gets 404', async () => {
    await fc.assert(
      fc.asyncProperty(malformedChatId, async (chatId) => {
        const response = await running.client.get(departmentsPath(chatId));
        expect(response.status).toBe(404);
        // An id that breaks out of its path segment (empty, `..`) misses the route: `not_found`, still a 404.
        expect(['malformed_chat_id', 'not_found']).toContain((await bodyOf(response, ErrorBodySchema)).error);
      }),
      RUNS,
    );
  });

  it('a well-formed id nobody has gets 404 user_not_found', async () => {
    await fc.assert(
      fc.asyncProperty(unknownChatId, async (chatId) => {
        const response = await running.client.get(departmentsPath(chatId));
        expect(response.status).toBe(404);
        expect((await bodyOf(response, ErrorBodySchema)).error).toBe('user_not_found');
      }),
      RUNS,
    );
  });

  it('a known id gets 200 with that user', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KNOWN_IDS), async (chatId) => {
        const response = await running.client.get(departmentsPath(chatId));
        expect(response.status).toBe(200);
        expect((await bodyOf(response, DepartmentsResponseSchema)).user.chatId).toBe(chatId);
      }),
      { ...RUNS, numRuns: 10 },
    );
  });
});
