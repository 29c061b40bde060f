import type { FakePlayer } from './fake-server-port.js';

// The demo users of mock-panel/data/default.json, by what they exercise.

/** Alex Mercer: LSPD Sergeant (rank 2) and BCSO Deputy (rank 4); SAFR roles only in another guild. */
export const TWO_DEPARTMENTS = '284619375016482817';
/** Jamie Rivera: SAFR Captain (rank 7). */
export const ONE_DEPARTMENT = '1039284756102938475';
/** Sam Okafor: LSPD roles, but only in another guild. */
export const OTHER_GUILD_ONLY = '305718264950173648';
/** Riley Chen: a civilian role only. */
export const NO_DEPARTMENTS = '417293856102947583';
/** Well formed, but no such user. */
export const UNKNOWN_USER = '999999999999999999';

export const LSPD = { id: 1, sergeant: 2, lieutenant: 3 } as const;
export const BCSO = { id: 2, deputy: 4 } as const;
export const SAFR = { id: 3, captain: 7 } as const;

export const ROLES = {
  lspdMember: '1187342095671230001',
  lspdOfficer: '1187342095671230011',
  lspdSergeant: '1187342095671230012',
  lspdLieutenant: '1187342095671230013',
  bcsoMember: '1187342095671230002',
  bcsoDeputy: '1187342095671230021',
} as const;

/** A player as FXServer lists them, with the usual identifiers around the chat one. */
export const playerWith = (chatId: string, name = 'Test Player'): FakePlayer => ({
  name,
  identifiers: ['license:0f9e8d7c6b5a', `chat:${chatId}`, 'ip:127.0.0.1'],
});

export const ALEX = playerWith(TWO_DEPARTMENTS, 'Alex Mercer');
export const JAMIE = playerWith(ONE_DEPARTMENT, 'Jamie Rivera');
