import type { SendPace } from '../rate-limit/rate-budget.js';

/**
 * Every panel request waits in one of these classes; a class is served only when every class before it is empty.
 * - `duty`: duty on/off calls (and the probe), the only class that may use every request left in the window;
 * - `waiting`: a player is actively waiting (their client asked for their profile, /dutyrefresh, a duty check);
 * - `join`: a joining player's profile, fetched before their client asks for it;
 * - `member-refresh`, `other-refresh`: stale profiles refreshed in the background, department members first.
 */
export const REQUEST_CLASSES = ['duty', 'waiting', 'join', 'member-refresh', 'other-refresh'] as const;

export type RequestClass = (typeof REQUEST_CLASSES)[number];

/** The classes a profile fetch may use (duty calls have their own). */
export type ProfileRequestClass = Exclude<RequestClass, 'duty'>;

export const classRank = (requestClass: RequestClass): number => REQUEST_CLASSES.indexOf(requestClass);

/** Duty calls go as soon as a request is left; the rest is spread over the window so duty calls always find one. */
export const paceOf = (requestClass: RequestClass): SendPace => (requestClass === 'duty' ? 'immediate' : 'paced');
