import { from, Observable, type ObservableInput, type OperatorFunction, type Subscription } from 'rxjs';

/** A key's lane: the values not worked yet (the one being worked has left it). */
interface Lane<T> {
  waiting: T[];
}

/**
 * `groupBy(key)` + `concatMap(work)`: each key's values are worked one after another, keys never wait for each
 * other, and a key's lane closes as soon as it has nothing queued or running, so keys that come and go (players,
 * chat accounts) leave nothing behind. Written as one operator rather than composed from groupBy, concatMap and
 * finalize: every duty toggle opens a lane in two places (the account's intents and its outbox calls), and the
 * composed form built a group, its subject, a closing subject and four subscribers for each, most of a toggle's
 * rxjs allocations (docs/budget.md, "Bytes allocated per duty toggle"). Errors and completion behave as mergeMap's:
 * a failed work or source fails the output, which completes once the source has and every lane is empty.
 */
export function concatMapPerKey<T, K, R>(
  keyOf: (value: T) => K,
  work: (value: T) => ObservableInput<R>,
  lanes?: { open: number },
): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      const open = new Map<K, Lane<T>>();
      const running = new Set<Subscription>();
      let sourceDone = false;
      const completeIfIdle = () => {
        if (sourceDone && open.size === 0) subscriber.complete();
      };
      const close = (key: K) => {
        open.delete(key);
        if (lanes) lanes.open -= 1;
      };
      // Works the lane's values in turn. A work that ends synchronously lets the loop go on (no recursion, so a long
      // lane of synchronous work cannot overflow the stack); one that ends later starts the lane again.
      const run = (key: K, lane: Lane<T>) => {
        while (lane.waiting.length > 0) {
          const current = lane.waiting.shift() as T;
          let input: Observable<R>;
          try {
            input = from(work(current));
          } catch (error) {
            subscriber.error(error);
            return;
          }
          let subscribing = true;
          let endedNow = false;
          const inner: Subscription = input.subscribe({
            next: (result) => subscriber.next(result),
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              if (subscribing) {
                endedNow = true;
                return;
              }
              running.delete(inner);
              if (!subscriber.closed) run(key, lane);
            },
          });
          subscribing = false;
          if (subscriber.closed) {
            inner.unsubscribe();
            return;
          }
          if (!endedNow) {
            running.add(inner);
            return;
          }
        }
        close(key);
        completeIfIdle();
      };
      const sourceSubscription = source.subscribe({
        next: (value) => {
          if (subscriber.closed) return;
          // The key is read once per value: a key function that looks things up may answer differently later.
          let key: K;
          try {
            key = keyOf(value);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          const lane = open.get(key);
          if (lane) {
            lane.waiting.push(value);
            return;
          }
          const fresh: Lane<T> = { waiting: [value] };
          open.set(key, fresh);
          if (lanes) lanes.open += 1;
          run(key, fresh);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          completeIfIdle();
        },
      });
      return () => {
        sourceSubscription.unsubscribe();
        for (const inner of running) inner.unsubscribe();
        running.clear();
        if (lanes) lanes.open -= open.size;
        open.clear();
      };
    });
}
