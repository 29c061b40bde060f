// Console formatting of citizen/scripting/v8/console.js (a WHATWG-style formatter): objects as indented JSON,
// errors as their stack. Written against tags, not `instanceof`, because values come from other realms.
const tag = (v: unknown) => Object.prototype.toString.call(v);

export function formatValue(arg: unknown): string {
  if (arg === null) return 'null';
  if (arg === undefined) return 'undefined';
  if (typeof arg === 'string') return arg;
  if (typeof arg !== 'object') return String(arg);
  const t = tag(arg);
  if (t === '[object Error]') return errorText(arg);
  if (t === '[object Map]') {
    const lines = [...(arg as Map<unknown, unknown>)].map(([k, v]) => `  ${formatValue(k)} => ${formatValue(v)}`);
    return ['Map {', ...lines, '}'].join('\n');
  }
  if (t === '[object Set]')
    return ['Set {', ...[...(arg as Set<unknown>)].map((v) => `  ${formatValue(v)}`), '}'].join('\n');
  if (ArrayBuffer.isView(arg) && !(arg instanceof DataView)) {
    const view = arg as unknown as { constructor: { name: string }; join(sep: string): string };
    return `${view.constructor.name}[ ${view.join(' ')} ]`;
  }
  if (Array.isArray(arg) || String(arg) === '[object Object]') {
    const seen: unknown[] = [];
    try {
      return JSON.stringify(
        arg,
        (_k, v) => {
          if (typeof v === 'object' && v !== null) {
            if (seen.includes(v)) return undefined;
            seen.push(v);
          }
          if (typeof v === 'bigint') return `${v}n`;
          return v;
        },
        2,
      );
    } catch {
      return String(arg);
    }
  }
  return String(arg);
}

export function format(args: readonly unknown[]): string {
  if (args.length === 0) return '';
  const [message, ...rest] = args;
  if (typeof message !== 'string' || rest.length === 0) return args.map(formatValue).join(' ');
  let used = 0;
  const text = message.replace(/%[sdifoO]/g, (spec) => {
    if (used >= rest.length) return spec;
    const value = rest[used++];
    switch (spec) {
      case '%s':
        return String(value);
      case '%d':
      case '%i':
        return String(Number.parseInt(String(value), 10));
      case '%f':
        return String(Number.parseFloat(String(value)));
      default:
        return formatValue(value);
    }
  });
  return [text, ...rest.slice(used).map(formatValue)].join(' ');
}

/**
 * A stack as FXServer shows it: only frames in resource scripts (`@resource/file.js`), like main.js's
 * prepareStackTrace, which drops the runtime's own frames; here those are the simulator's.
 */
function scriptStack(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => !/^\s+at /.test(line) || line.includes('@'))
    .join('\n');
}

/** An error as FXServer prints it: the stack when there is one, else `Name: message`, else the value. */
export function errorText(e: unknown): string {
  if (e && typeof e === 'object') {
    const err = e as { stack?: unknown; name?: unknown; message?: unknown };
    if (typeof err.stack === 'string' && err.stack) return scriptStack(err.stack);
    if (typeof err.message === 'string') return `${String(err.name ?? 'Error')}: ${err.message}`;
  }
  return formatValue(e);
}

/** What a rejected async export or reference call hands the caller: the message as a string. */
export function errorMessage(e: unknown): string {
  if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') {
    return (e as { message: string }).message;
  }
  return String(e);
}

/** A compile error: `SyntaxError: message (@res/file.js:line)`, without V8's source excerpt. */
export function syntaxErrorText(e: unknown): string {
  if (!e || typeof e !== 'object') return String(e);
  const err = e as { stack?: unknown; name?: unknown; message?: unknown };
  const where = typeof err.stack === 'string' ? err.stack.split('\n')[0] : '';
  const text = `${String(err.name ?? 'Error')}: ${String(err.message ?? '')}`;
  return where?.startsWith('@') ? `${text} (${where})` : text;
}
