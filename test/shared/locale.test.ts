import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../shared/config/index.js';
import { ENGLISH, formatMessage, messagesFrom, overrideProblem, placeholdersOf } from '../../shared/locale.js';

describe('the locale table', () => {
  it('fills placeholders and leaves one without a value visible', () => {
    expect(formatMessage(ENGLISH, 'on_duty', { department: 'LSPD', rank: 'Sergeant' })).toBe(
      'You are now on duty: LSPD, Sergeant.',
    );
    expect(formatMessage(ENGLISH, 'on_duty', { department: 'LSPD' })).toBe('You are now on duty: LSPD, {rank}.');
  });

  it("takes an owner's text for a message, which may leave placeholders out", () => {
    const messages = messagesFrom({ on_duty: 'Dienst begonnen: {department}' });
    expect(formatMessage(messages, 'on_duty', { department: 'LSPD', rank: 'Sergeant' })).toBe('Dienst begonnen: LSPD');
    expect(messages.off_duty).toBe(ENGLISH.off_duty);
  });

  it('lets an off-duty text name the department although the English one does not', () => {
    expect(placeholdersOf('off_duty')).toEqual(['department']);
    expect(messagesFrom({ off_duty: 'Dienst in {department} beendet.' }).off_duty).toBe(
      'Dienst in {department} beendet.',
    );
  });

  it('keeps English for a text with a placeholder the message is not given, a non-string, or an unknown key', () => {
    const messages = messagesFrom({ on_duty: 'Dienst: {abteilung}', off_duty: 42, on_dutty: 'typo', constructor: 'x' });
    expect(messages.on_duty).toBe(ENGLISH.on_duty);
    expect(messages.off_duty).toBe(ENGLISH.off_duty);
    expect(Object.keys(messages).sort()).toEqual(Object.keys(ENGLISH).sort());
    expect(overrideProblem('on_duty', 'Dienst: {abteilung}')).toBe(
      'on_duty has no placeholder {abteilung}; it can use {department}, {rank}',
    );
  });

  it('accepts an empty Lua table (an empty array after msgpack) and a missing Locale', () => {
    expect(messagesFrom([])).toEqual(ENGLISH);
    expect(messagesFrom(undefined)).toEqual(ENGLISH);
  });
});

describe('Config.Locale on the server', () => {
  it('names every unusable text and unknown key in the console, keeping the good texts', () => {
    const { config, problems } = validateConfig({
      Locale: { on_duty: 'Dienst: {abteilung}', off_duty: 'Dienst beendet.', rank_changd: 'Rang: {rank}', loading: 7 },
    });
    expect(config.Locale.off_duty).toBe('Dienst beendet.');
    expect(config.Locale.on_duty).toBe(ENGLISH.on_duty);
    expect(config.Locale.loading).toBe(ENGLISH.loading);
    expect(problems.map(({ key, kind }) => [key, kind])).toEqual([
      ['Locale.on_duty', 'invalid'],
      ['Locale.loading', 'invalid'],
      ['Locale.rank_changd', 'unknown'],
    ]);
    expect(problems[0]?.message).toBe(
      "Locale.on_duty = 'Dienst: {abteilung}' is not valid (on_duty has no placeholder {abteilung}; it can use " +
        "{department}, {rank}); using the default 'You are now on duty: {department}, {rank}.'",
    );
  });

  it('refuses a notification style it does not know', () => {
    const { config, problems } = validateConfig({ Notifications: 'okokNotify' });
    expect(config.Notifications).toBe('auto');
    expect(problems.map((problem) => problem.key)).toEqual(['Notifications']);
  });
});
