// What survives the msgpack boundary (fivem-runtime.md §1.5, §2.3), from JS and from Lua.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtures } from '../../bench/support/sim-fixtures.js';
import { isExtBuffer, pack, unpack } from '../../sim/codec/msgpack.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim;
const core = () => sim.exports.sim_core;
const consumer = () => sim.exports.sim_consumer;

beforeAll(async () => {
  sim = await startFixtures();
});
afterAll(() => sim.stop());

describe('JS to JS', () => {
  it('turns undefined into null, loses Map/Set/Date/prototypes, keeps only ArrayBuffer as binary', () => {
    const v = core().SpecialValues() as Record<string, unknown>;
    expect(v.undef).toBeNull();
    expect(v.sparse).toEqual([1, null, 3]);
    expect(v.map).toEqual({});
    expect(v.set).toEqual({});
    expect(v.date).toEqual({});
    expect(v.point).toEqual({ x: 1, y: 2 });
    expect(v.bytes).toEqual({ 0: 1, 1: 2 });
    expect(v.buffer).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(v.buffer as ArrayBuffer)]).toEqual([7, 8]);
    expect(v.numericKeys).toEqual({ 1: 'a' });
  });

  it('refuses to pack a BigInt', () => {
    expect(core().PackBigInt()).toMatch(/Unsupported type "bigint"/);
  });

  it('returns null, not undefined, from a JS export that returns nothing, and does not unwrap arrays', () => {
    expect(core().ReturnsNothing()).toBeNull();
    expect(core().ReturnsArray()).toEqual([1, 2]);
  });

  it('copies payloads: a handler mutating its argument does not touch the sender’s object', () => {
    const sent = { untouched: true };
    const seen: unknown[] = [];
    sim.on('codec:mutate', (args) => {
      (args[0] as Record<string, unknown>).mutated = true;
      seen.push(args[0]);
    });
    sim.emit('codec:mutate', sent);
    expect(seen).toEqual([{ untouched: true, mutated: true }]);
    expect(sent).toEqual({ untouched: true });
    const returned = core().Mutate(sent);
    expect(returned).toEqual({ untouched: true, changed: true });
    expect(sent).toEqual({ untouched: true });
  });

  it('packs functions anywhere as references and unpacks them to callables', () => {
    const counter = core().MakeCounter() as { label: string; next: () => number };
    expect(counter.label).toBe('counter');
    expect([counter.next(), counter.next()]).toEqual([1, 2]);
  });
});

describe('JS to Lua', () => {
  it('sends int32 integers as Lua integers and everything else (2^31, Date.now()) as floats', () => {
    expect(core().TypeOf(1, 1.5, 2 ** 31, Date.now(), 'x', [1], { a: 1 }, () => 1)).toEqual([
      'integer',
      'float',
      'float',
      'float',
      'string',
      'table',
      'table',
      'table',
    ]);
  });

  it('gives Lua string keys for numeric-looking JS object keys', () => {
    expect(core().Echo({ 1: 'a' })).toEqual({ 1: 'a' });
  });

  it('lets Lua call a JS object’s method, and JS call a function Lua passes', () => {
    const out = consumer().CallJs() as Record<string, unknown>;
    expect(out.counterType).toBe('table');
    expect(out.counter).toEqual([1, 2]);
    expect(out.counterLabel).toBe('counter');
    expect(out.callLua).toBe('lua saw 7');
    expect(core().CallBack((v: number) => `js saw ${v}`, 5)).toBe('js saw 5');
  });

  it('matches msgpack-lite on every value that survives a round trip through Lua', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
    const scalar = fc.oneof(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.double({ noNaN: true }).filter((d) => !Number.isInteger(d) || Math.abs(d) >= 2 ** 31),
      fc.string(),
      fc.boolean(),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
      array: fc.array(tie('node'), { minLength: 1, maxLength: 5 }),
      object: fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 5 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(core().Echo(v)).toEqual(v);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Lua to JS', () => {
  it('reads a Lua config table the way FXServer hands it to JS', () => {
    const config = core().GetConfig() as Record<string, unknown>;
    expect(config.Departments).toEqual(['lspd', 'bcso']);
    expect(config.Ranks).toEqual([]);
    expect(config.Sparse).toEqual({ 1: 'a', 3: 'c' });
    expect(config.Mixed).toEqual({ 1: 'first', key: 'value' });
    expect(config.Whole).toBe(2);
    expect(config.Ratio).toBe(0.5);
    expect(isExtBuffer(config.Station)).toBe(true);
    expect((config.Station as { type: number; buffer: Uint8Array }).type).toBe(21);
    expect((config.Station as { buffer: Uint8Array }).buffer.length).toBe(12);
    expect((config.Describe as (x: string) => string)('z')).toBe('described z');
  });

  it('turns several return values into an array, and `nil, err` into a map keyed "2"', () => {
    expect(core().Pair()).toEqual(['left', 'right']);
    expect(consumer().Multi()).toEqual([1, 2, 3]);
    expect(core().NilAndError()).toEqual({ 2: 'boom' });
    expect(core().BareFalse()).toBe(false);
  });

  it('encodes json the cfx way: empty tables as arrays, null as a hole', () => {
    expect(consumer().Json()).toEqual(['{"empty":[],"list":[1,2],"name":"x"}', 3]);
  });
});

describe('the codec module', () => {
  it('makes one reference per packed function and hands references to the unpacker', () => {
    const made: unknown[] = [];
    const bytes = pack({ f: () => 1, nested: [() => 2] }, (fn) => {
      made.push(fn);
      return `res:1:${made.length - 1}`;
    });
    expect(made).toHaveLength(2);
    expect(unpack(bytes, (ref) => `ref(${ref})`)).toEqual({ f: 'ref(res:1:0)', nested: ['ref(res:1:1)'] });
  });
});
