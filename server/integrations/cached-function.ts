/**
 * A function taken from a framework object once and kept: fetching the object copies it through msgpack, the
 * whole framework included. When a call fails (the framework restarted and the reference died) it is fetched again
 * and the call retried once.
 */
export function cachedFunction<Args extends unknown[], Result>(
  what: string,
  fetch: () => unknown,
): (...args: Args) => Result {
  let cached: ((...args: Args) => Result) | undefined;
  const refetch = (): ((...args: Args) => Result) => {
    const fn = fetch();
    if (typeof fn !== 'function') throw new Error(`${what} is not a function`);
    cached = fn as (...args: Args) => Result;
    return cached;
  };
  return (...args) => {
    if (cached) {
      try {
        return cached(...args);
      } catch {
        cached = undefined;
      }
    }
    return refetch()(...args);
  };
}
