// Script globs in manifests (`client/*.lua`, `server/**/*.js`): `*` and `?` stay within a folder, `**` crosses
// folders. Matching files are listed in byte order; node_modules and dot-folders are only entered when the pattern
// names them.
import fs from 'node:fs';
import path from 'node:path';

export function hasGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*' && pattern[i + 1] === '*') {
      if (pattern[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Files of `dir` matching `pattern` (relative paths with `/`). */
export function expandGlob(dir: string, pattern: string): string[] {
  const normalized = pattern.replace(/\\/g, '/').replace(/^\.\//, '');
  const segments = normalized.split('/');
  const firstWild = segments.findIndex(hasGlob);
  const base = segments.slice(0, firstWild < 0 ? segments.length - 1 : firstWild).join('/');
  const re = globToRegExp(normalized);
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if ((entry.name === 'node_modules' || entry.name.startsWith('.')) && !normalized.startsWith(child)) continue;
        walk(child);
      } else if (re.test(child)) out.push(child);
    }
  };
  walk(base);
  return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
