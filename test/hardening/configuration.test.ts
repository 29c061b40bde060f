import { describe, expect, it } from 'vitest';
import { configShape, defaultConfig, validateConfig } from '../../shared/config/index.js';

type Shape = { [key: string]: unknown };
const isLeaf = (value: unknown) => typeof (value as { safeParse?: unknown }).safeParse === 'function';

/** Every leaf key of the config, as a dotted path. */
const leafPaths = (shape: Shape, prefix = ''): string[] =>
  Object.entries(shape).flatMap(([key, value]) =>
    isLeaf(value) ? [`${prefix}${key}`] : leafPaths(value as Shape, `${prefix}${key}.`),
  );

/** A config.lua table with one key set to `value`, everything else left out. */
const withValue = (path: string, value: unknown): Record<string, unknown> => {
  const keys = path.split('.');
  const root: Record<string, unknown> = {};
  let node = root;
  for (const key of keys.slice(0, -1)) {
    node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1) as string] = value;
  return root;
};

const valueAt = (config: unknown, path: string) =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);

// Values of the wrong kind for every key: a number where text is wanted and the other way round, a table, a
// function reference as Lua would send one.
const WRONG_VALUES: Array<[string, unknown]> = [
  ['a table', { nested: true }],
  ['a list', [1, 2, 3]],
  ['a function reference', '[funcref]'],
  ['NaN', Number.NaN],
  ['a negative number', -1],
];

describe('every config.lua key given a wrong type or value', () => {
  const paths = leafPaths(configShape as unknown as Shape);

  it('covers every key of the schema', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it.each(paths)('%s: one clear message naming the key, the default used, the rest untouched', (path) => {
    const fallback = valueAt(defaultConfig(), path);
    let refused = 0;
    for (const [, value] of WRONG_VALUES) {
      const { config, problems } = validateConfig(withValue(path, value));
      const accepted = problems.length === 0;
      // A few keys legitimately take some of these (a table for a mapping); what matters is that none takes all.
      if (accepted) continue;
      refused++;
      expect(problems).toHaveLength(1);
      expect(problems[0]?.key.startsWith(path.split('.').slice(0, 2).join('.'))).toBe(true);
      expect(problems[0]?.message).toContain(path.split('.').slice(0, 2).join('.'));
      // The key, the value, what is allowed and what is used instead, in the owner's words rather than zod's.
      const message = problems[0]?.message ?? '';
      expect(message).toMatch(/^[\w.[\]']+ = .+ is not valid \(.+\); (using|the entry|rank|every|\w+ gets) .+$/);
      expect(message).not.toMatch(/Invalid input|Invalid option|Too (small|big)|expected|a table$/);
      expect(valueAt(config, path)).toEqual(fallback);
      expect({ ...config, [path.split('.')[0] as string]: undefined }).toEqual({
        ...defaultConfig(),
        [path.split('.')[0] as string]: undefined,
      });
    }
    expect(refused, `${path} accepted every wrong value`).toBeGreaterThan(0);
  });
});
