/**
 * Runs each player's framework calls one after another. A call that answers synchronously runs at once (so a
 * resource stop, which gives no later tick, still reaches the framework); only while an asynchronous one (ox_core)
 * is pending does the next wait for it, so an "off" never overtakes the "on" before it.
 */
export class PlayerQueue {
  private readonly tails = new Map<number, Promise<void>>();

  /** `task` must not throw or reject: it handles its own failures. */
  run(src: number, task: () => void | Promise<void>): void {
    const tail = this.tails.get(src);
    if (tail) {
      this.track(src, tail.then(task));
      return;
    }
    const pending = task();
    if (pending) this.track(src, pending);
  }

  forget(src: number): void {
    this.tails.delete(src);
  }

  private track(src: number, promise: Promise<void>): void {
    const done = () => {
      if (this.tails.get(src) === settled) this.tails.delete(src);
    };
    // A task that failed anyway must not stop the player's later ones.
    const settled: Promise<void> = promise.then(done, done);
    this.tails.set(src, settled);
  }
}
