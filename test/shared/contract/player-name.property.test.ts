import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DutyOnBodySchema } from '../../../shared/contract';
import { PLAYER_NAME_MAX_LENGTH, panelPlayerName } from '../../../shared/contract/player-name';

const RUNS = { seed: 0x5a3e12, numRuns: 2_000 };

/** A UTF-16 code unit of every kind that matters: controls, spaces, surrogates (paired or lone), plain letters. */
const unit = fc.oneof(
  fc.integer({ min: 0x00, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(' ', '\t', '\u00a0', '\u2028', '\u3000', '\ufeff'),
  fc.constantFrom('😀', '𝒜', '\ud83d', '\ude00'),
  fc.constantFrom('a', 'Z', '-', '_', 'é', 'Ω', '名'),
);

/** Names a client could send: short and long (around the limit), made of those units, or any string at all. */
const clientName = fc.oneof(
  fc.array(unit, { maxLength: 20 }).map((units) => units.join('')),
  fc.array(unit, { minLength: 240, maxLength: 300 }).map((units) => units.join('')),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .tuple(fc.nat(PLAYER_NAME_MAX_LENGTH + 2), fc.constantFrom('😀', ' 😀', '\u0000😀'))
    .map(([length, tail]) => `${'n'.repeat(length)}${tail}${'x'.repeat(5)}`),
);

const body = (playerName: string | undefined) => ({
  chatId: '284619375016482817',
  departmentId: 1,
  rankId: 2,
  serverId: 7,
  ...(playerName === undefined ? {} : { playerName }),
});

const endsInHalfACharacter = (text: string) => /[\ud800-\udbff]$/.test(text);

describe('the player name the duty `on` body carries', () => {
  it('always parses with the contract: the body is accepted with the name or without it', () => {
    fc.assert(
      fc.property(clientName, (name) => {
        const result = panelPlayerName(name);
        expect(DutyOnBodySchema.safeParse(body(result)).success).toBe(true);
        // The same through JSON, as it travels (and as the outbox keeps it).
        expect(DutyOnBodySchema.safeParse(JSON.parse(JSON.stringify(body(result)))).success).toBe(true);
      }),
      RUNS,
    );
  });

  it('has no control characters or surrounding spaces, and is left out only when nothing else is left', () => {
    fc.assert(
      fc.property(clientName, (name) => {
        const result = panelPlayerName(name);
        const visible = name.replace(/\p{Cc}/gu, '').trim();
        expect(result === undefined).toBe(visible === '');
        if (result === undefined) return;
        expect(result).not.toMatch(/\p{Cc}/u);
        expect(result).toBe(result.trim());
        expect(result.length).toBeLessThanOrEqual(PLAYER_NAME_MAX_LENGTH);
        expect(visible.startsWith(result)).toBe(true);
      }),
      RUNS,
    );
  });

  it('never cuts a character in two', () => {
    fc.assert(
      fc.property(clientName, (name) => {
        const result = panelPlayerName(name);
        if (result === undefined || result.length === name.replace(/\p{Cc}/gu, '').trim().length) return;
        expect(endsInHalfACharacter(result)).toBe(false);
      }),
      RUNS,
    );
  });

  it('leaves a name the contract accepts as it is, and cleaning twice changes nothing', () => {
    fc.assert(
      fc.property(clientName, (name) => {
        const result = panelPlayerName(name);
        expect(panelPlayerName(result)).toBe(result);
      }),
      RUNS,
    );
    expect(panelPlayerName('Officer Doe')).toBe('Officer Doe');
    expect(panelPlayerName('n'.repeat(PLAYER_NAME_MAX_LENGTH))).toBe('n'.repeat(PLAYER_NAME_MAX_LENGTH));
  });

  it('cuts a 256-character name to the limit and leaves out an empty one, or a name that is not a string', () => {
    expect(PLAYER_NAME_MAX_LENGTH).toBe(255);
    expect(panelPlayerName('N'.repeat(256))).toBe('N'.repeat(255));
    expect(panelPlayerName(`${'a'.repeat(254)}😀`)).toBe('a'.repeat(254));
    for (const empty of ['', '   ', '\u0000\u001f\u007f\u009f', null, undefined, 42]) {
      expect(panelPlayerName(empty)).toBeUndefined();
    }
  });
});
