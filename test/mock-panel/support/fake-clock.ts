/** A clock that only moves when the test says so. */
export function createFakeClock(startMs = Date.UTC(2025, 0, 1, 12, 0, 0)) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance(ms: number) {
      nowMs += ms;
    },
  };
}
