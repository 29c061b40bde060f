// How generated native wrappers convert arguments (ext/natives/codegen_out_{js,lua}.lua): a `char*` goes through
// `_ts`, which turns 0, null, undefined and false into null and anything else into a string; a null where the
// native needs a value fails with "Argument at index N was null.".

export function ts(value: unknown): string | null {
  if (value === 0 || value === null || value === undefined || value === false) return null;
  return String(value);
}

/** A required `char*` argument. */
export function str(args: readonly unknown[], index: number): string {
  const v = ts(args[index]);
  if (v === null) throw new Error(`Argument at index ${index} was null.`);
  return v;
}

/** An optional `char*` argument (null allowed). */
export function optStr(args: readonly unknown[], index: number): string | null {
  return ts(args[index]);
}

export function int(args: readonly unknown[], index: number): number {
  const v = Number(args[index] ?? 0);
  return Number.isFinite(v) ? Math.trunc(v) : 0;
}

export function float(args: readonly unknown[], index: number): number {
  const v = Number(args[index] ?? 0);
  return Number.isFinite(v) ? v : 0;
}

export function bool(args: readonly unknown[], index: number): boolean {
  return Boolean(args[index]);
}
