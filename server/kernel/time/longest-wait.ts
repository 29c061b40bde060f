/**
 * The longest the bridge waits for anything: the outbox's backoff cap, and the cap on every wait a panel or a proxy
 * in front of it asks for (`Retry-After`, a rate-limit reset). One answer saying "an hour" must not park a duty call
 * for an hour; a minute is one window of the panel's rate limit.
 */
export const LONGEST_WAIT_MS = 60_000;
