import { Observable, type Subscriber } from 'rxjs';

/**
 * The injected sleep as an Observable that emits once when it ends. The sleep cannot be cancelled: unsubscribing lets
 * go of the subscriber at once, so a wait that stays pending for minutes after its work ended holds nothing of it
 * (`defer(() => sleep(ms))` would keep the whole closed subscription chain until the sleep ends).
 */
export function abandonableWait(sleep: (ms: number) => Promise<void>, ms: number): Observable<void> {
  return new Observable<void>((subscriber) => {
    let waiting: Subscriber<void> | undefined = subscriber;
    void sleep(ms).then(() => {
      waiting?.next();
      waiting?.complete();
    });
    return () => {
      waiting = undefined;
    };
  });
}
