/**
 * Which keys were told already, so a fault that repeats (per player, per call) is told once, until it is forgotten
 * (the fault went away). The logger's `once` uses it; so does a report that forgets its keys together.
 */
export class OncePerKey<K = string> {
  private readonly told = new Set<K>();

  /** True the first time `key` is seen, and marks it; false until it is forgotten. */
  first(key: K): boolean {
    if (this.told.has(key)) return false;
    this.told.add(key);
    return true;
  }

  /** Lets `key` be told again; says whether it had been told. */
  forget(key: K): boolean {
    return this.told.delete(key);
  }

  /** Lets every key be told again; says whether any had been told. */
  forgetAll(): boolean {
    const any = this.told.size > 0;
    this.told.clear();
    return any;
  }
}
