import { describe, expect, it } from 'vitest';
import { average, proseFigure, sentencesOf } from '../../scripts/prose.js';

const SAMPLE = [
  '# A heading is not prose',
  '',
  'The bridge reads `config.lua` once. It then [asks the panel](docs/api.md) for profiles!',
  '',
  '| a table | is not prose either |',
  '```lua',
  'Config.Long = "fenced code is left out. Even with Capitals."',
  '```',
  '- Yes.',
  '    An indented line counts as prose too.',
  'Is it done? (yes, it is) and version 1.2 stays one sentence.',
].join('\n');

describe('npm run prose', () => {
  it('cuts sentences as the review did: no fences, tables or headings; inline code one word; a link its text; a break before a capital, * ( or [; pieces under three words dropped', () => {
    expect(sentencesOf(SAMPLE)).toEqual([
      'The bridge reads X once.',
      // A list marker is not a capital: the item runs on from the sentence before it.
      'It then asks the panel for profiles! - Yes.',
      'An indented line counts as prose too.',
      'Is it done?',
      '(yes, it is) and version 1.2 stays one sentence.',
    ]);
  });

  it('averages the words per sentence over the sentences kept', () => {
    const figure = proseFigure(SAMPLE);
    expect(figure).toEqual({ words: 5 + 9 + 7 + 3 + 9, sentences: 5 });
    expect(average(figure)).toBeCloseTo(33 / 5);
    expect(average({ words: 0, sentences: 0 })).toBe(0);
  });
});
