import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { cfgLines } from '../sim/index.js';

/** A resource folder of the tester's own that the playground starts after the bridge (`--resource ../my-mdt`). */
export interface OwnResource {
  /** The folder, absolute. */
  dir: string;
  /** Its resource name: the folder's name, as FXServer names a folder under resources/. */
  name: string;
}

/**
 * The folders given with `--resource`, read from `base` (where the tester typed the command). A folder that is no
 * resource, or whose name another one has, is refused with a sentence saying what is wrong.
 */
export function ownResources(given: readonly string[], base: string): OwnResource[] | { error: string } {
  const found: OwnResource[] = [];
  for (const path of given) {
    const dir = resolve(base, path);
    const name = basename(dir);
    const problem =
      !existsSync(dir) || !statSync(dir).isDirectory()
        ? `${dir} is not a folder`
        : !existsSync(resolve(dir, 'fxmanifest.lua'))
          ? `${dir} has no fxmanifest.lua, which every resource folder needs`
          : name === 'bridge'
            ? 'the folder is named bridge, the name of the bridge the playground runs; rename your copy'
            : found.some((other) => other.name === name)
              ? `another --resource is named ${name} too, and a server runs one resource of each name`
              : undefined;
    if (problem !== undefined) return { error: `--resource ${path}: ${problem}` };
    found.push({ dir, name });
  }
  return found;
}

/** The lines of the `--cfg` file, read from `base`, as FXServer reads server.cfg; an unreadable file is refused. */
export function extraCfgLines(path: string, base: string): string[] | { error: string } {
  const file = resolve(base, path);
  try {
    return cfgLines(readFileSync(file, 'utf8'));
  } catch (error) {
    return { error: `--cfg ${path}: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})` };
  }
}
