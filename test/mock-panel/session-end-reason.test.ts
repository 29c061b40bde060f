import { describe, expect, it } from 'vitest';
import { DutyBook } from '../../mock-panel/store/duty-book';
import { LSPD, TWO_DEPARTMENTS } from './support/demo-users';

// The off call does not say why a session ended; a host that sees the game side (the playground) reports it, before
// or after the off call reaches the panel.

const lspd = { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id, rankId: LSPD.sergeant };
const reasons = (book: DutyBook) => book.sessions().map((session) => [session.endedBy, session.reportedReason]);

describe('a session end reason reported to the panel', () => {
  it('reported before the off call: the session takes it when it ends', () => {
    const book = new DutyBook(() => 0);
    book.goOn(lspd);
    book.noteEndReason(TWO_DEPARTMENTS, LSPD.id, 'dropped');
    expect(reasons(book)).toEqual([[null, undefined]]);
    book.goOff(TWO_DEPARTMENTS, LSPD.id);
    expect(reasons(book)).toEqual([['off', 'dropped']]);
  });

  it('reported after the off call: the last session that ended without one takes it', () => {
    const book = new DutyBook(() => 0);
    book.goOn(lspd);
    book.goOff(TWO_DEPARTMENTS);
    book.goOn(lspd);
    book.goOff(TWO_DEPARTMENTS);
    book.noteEndReason(TWO_DEPARTMENTS, LSPD.id, 'request');
    book.noteEndReason(TWO_DEPARTMENTS, LSPD.id, 'admin');
    expect(reasons(book)).toEqual([
      ['off', 'admin'],
      ['off', 'request'],
    ]);
  });

  it('a session a new on replaced keeps none: the panel itself knows why', () => {
    const book = new DutyBook(() => 0);
    book.goOn(lspd);
    book.noteEndReason(TWO_DEPARTMENTS, LSPD.id, 'request');
    book.goOn({ ...lspd, rankId: LSPD.lieutenant });
    book.goOff(TWO_DEPARTMENTS);
    expect(reasons(book)).toEqual([
      ['switch', undefined],
      ['off', undefined],
    ]);
  });
});
