import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatIdSchema, findChatIdentifier, parseChatIdentifier } from '../../../shared/contract';

describe('chat user ids', () => {
  it('accept exactly 18 or 19 ASCII digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 9 }), (length, digit) => {
        const id = String(digit).repeat(length);
        expect(ChatIdSchema.safeParse(id).success).toBe(length === 18 || length === 19);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('reject unicode digits, signs and surrounding whitespace', () => {
    for (const id of [
      '２８４６１９３７５０１６４８２８１７',
      '٢٨٤٦١٩٣٧٥٠١٦٤٨٢٨١٧',
      '+84619375016482817',
      ' 284619375016482817',
    ]) {
      expect(ChatIdSchema.safeParse(id).success).toBe(false);
    }
  });
});

describe('the in-game chat identifier', () => {
  it('yields the id from chat:<id>', () => {
    expect(parseChatIdentifier('chat:284619375016482817')).toEqual({ ok: true, chatId: '284619375016482817' });
  });

  it('is missing when there is nothing', () => {
    for (const nothing of [null, undefined, '']) {
      expect(parseChatIdentifier(nothing)).toEqual({ ok: false, reason: 'missing' });
    }
  });

  it('is malformed with another prefix, a bad id, unicode digits, whitespace or a non-string', () => {
    const malformed = [
      'discord:284619375016482817',
      'Chat:284619375016482817',
      'chat:',
      'chat:12345',
      'chat:28461937501648281701',
      'chat:２８４６１９３７５０１６４８２８１７',
      'chat: 284619375016482817',
      'chat:284619375016482817 ',
      ' chat:284619375016482817',
      2846193750164828,
      {},
    ];
    for (const identifier of malformed) {
      expect(parseChatIdentifier(identifier)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it("is picked out of all of a player's identifiers", () => {
    const identifiers = ['license:abc123', 'discord:1234', 'chat:1039284756102938475', 'ip:127.0.0.1'];
    expect(findChatIdentifier(identifiers)).toEqual({ ok: true, chatId: '1039284756102938475' });
    expect(findChatIdentifier(['license:abc123', 'fivem:99'])).toEqual({ ok: false, reason: 'missing' });
    expect(findChatIdentifier(['license:abc123', 'chat:abc'])).toEqual({ ok: false, reason: 'malformed' });
  });
});
