// What every script runtime shares: instance ids and FXServer's canonical function references, refcounted. The
// `Runtime` interface itself is in resource.ts, beside the resource that holds its runtimes.

let nextInstanceId = 1;
export function newInstanceId(): number {
  return nextInstanceId++;
}

/** FXServer's canonical reference string: `<resource>:<runtime instance>:<reference index>`. */
export function canonicalRef(resource: string, instanceId: number, index: number): string {
  return `${resource}:${instanceId}:${index}`;
}

export function parseRef(ref: string): { resource: string; instanceId: number; index: number } | null {
  const match = /^(.*):(\d+):(\d+)$/.exec(ref);
  if (!match) return null;
  return { resource: match[1] ?? '', instanceId: Number(match[2]), index: Number(match[3]) };
}

/** A runtime's reference table, refcounted like FXServer's (created at 0, +1 per unpack, -1 per collection). */
export class RefTable<T> {
  private readonly entries = new Map<number, { value: T; count: number }>();
  private next = 0;

  add(value: T): number {
    const index = this.next++;
    this.entries.set(index, { value, count: 0 });
    return index;
  }

  get(index: number): T | undefined {
    return this.entries.get(index)?.value;
  }

  duplicate(index: number): void {
    const entry = this.entries.get(index);
    if (entry) entry.count++;
  }

  /** Returns the value when its last holder let go, so the owner can release it. */
  release(index: number): T | undefined {
    const entry = this.entries.get(index);
    if (!entry) return undefined;
    if (--entry.count > 0) return undefined;
    this.entries.delete(index);
    return entry.value;
  }

  /** Drops the value if nobody ever took it or everyone let go of it. */
  releaseUnheld(index: number): void {
    if (this.entries.get(index)?.count === 0) this.entries.delete(index);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
