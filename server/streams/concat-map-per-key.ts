import {
  concatMap,
  defer,
  finalize,
  groupBy,
  map,
  mergeMap,
  type ObservableInput,
  type OperatorFunction,
  Subject,
} from 'rxjs';

/** How many keys have a lane open right now: what a key that comes and goes (a player) still holds. */
export interface LaneCount {
  readonly open: number;
}

/**
 * `groupBy(key)` + `concatMap(work)`: each key's values are worked one after another, keys never wait for each
 * other. Unlike a plain `groupBy`, a key's group completes as soon as it has nothing queued or running, so keys that
 * come and go (players, chat accounts) leave nothing behind; the next value of that key opens a new group, which
 * cannot overtake the old one because the old one had nothing left.
 */
export function concatMapPerKey<T, K, R>(
  keyOf: (value: T) => K,
  work: (value: T) => ObservableInput<R>,
  lanes?: { open: number },
): OperatorFunction<T, R> {
  return (source) =>
    defer(() => {
      const queued = new Map<K, number>();
      // One closing signal per open group, so closing one key costs the same however many keys are open.
      const closers = new Map<K, Subject<void>>();
      const done = (key: K) => {
        const left = (queued.get(key) ?? 1) - 1;
        if (left > 0) {
          queued.set(key, left);
          return;
        }
        queued.delete(key);
        const closer = closers.get(key);
        closers.delete(key);
        closer?.next();
      };
      return source.pipe(
        // The key is read once per value: a key function that looks things up may answer differently later.
        map((value) => {
          const key = keyOf(value);
          queued.set(key, (queued.get(key) ?? 0) + 1);
          return { key, value };
        }),
        groupBy((item) => item.key, {
          duration: (group) => {
            const closer = new Subject<void>();
            closers.set(group.key, closer);
            return closer;
          },
        }),
        mergeMap((group) => {
          if (lanes) lanes.open += 1;
          return group.pipe(
            concatMap(({ key, value }) => defer(() => work(value)).pipe(finalize(() => done(key)))),
            finalize(() => {
              if (lanes) lanes.open -= 1;
            }),
          );
        }),
      );
    });
}
