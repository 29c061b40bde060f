// The demo users of mock-panel/data/default.json, by what they exercise.

/** Alex Mercer: LSPD Sergeant (rank 2) and BCSO Deputy (rank 4); SAFR roles only in another guild. */
export const TWO_DEPARTMENTS = '284619375016482817';
/** Jamie Rivera: SAFR Captain (rank 7), holding the Firefighter role too. */
export const ONE_DEPARTMENT = '1039284756102938475';
/** Sam Okafor: LSPD roles, but only in another guild. */
export const OTHER_GUILD_ONLY = '305718264950173648';
/** Riley Chen: a civilian role only. */
export const NO_DEPARTMENTS = '417293856102947583';
/** Casey Novak: LSPD member without a rank role, so the entry rank Officer (1). */
export const MEMBER_WITHOUT_RANK_ROLE = '562018374659201837';
/** Well formed, but no such user. */
export const UNKNOWN_USER = '999999999999999999';

export const LSPD = { id: 1, officer: 1, sergeant: 2, lieutenant: 3 } as const;
export const BCSO = { id: 2, deputy: 4 } as const;
export const SAFR = { id: 3, captain: 7 } as const;
export const OTHER_GUILD = '912345678901234560';
export const LSPD_ROLES = { member: '1187342095671230001', lieutenant: '1187342095671230013' } as const;
