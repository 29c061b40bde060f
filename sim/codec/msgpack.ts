// The JS side of FXServer's msgpack boundary (fivem-runtime.md §1.5): msgpack-lite with the codec options of
// citizen/scripting/v8/main.js, functions packed as function references (ext 10) and ext 10/11 unpacked to
// callables. Which runtime owns a packed function, and what an unpacked reference becomes, depends on the runtime
// doing the packing or unpacking, so both are passed per call.
import { createRequire } from 'node:module';
import msgpack from 'msgpack-lite';

export const EXT_FUNCREF = 10;
export const EXT_LOCALFUNCREF = 11;

/** msgpack-lite's ExtBuffer: what an unknown extension (e.g. a Lua vector3, ext 21) decodes to in JS. */
export interface ExtBuffer {
  buffer: Uint8Array;
  type: number;
}

const require = createRequire(import.meta.url);
const { ExtBuffer: ExtBufferClass } = require('msgpack-lite/lib/ext-buffer.js') as {
  ExtBuffer: new (buffer: Uint8Array, type: number) => ExtBuffer;
};
const { EncodeBuffer } = require('msgpack-lite/lib/encode-buffer.js') as {
  EncodeBuffer: new (options: { codec: msgpack.Codec }) => { write(value: unknown): void; read(): Uint8Array };
};

export function isExtBuffer(value: unknown): value is ExtBuffer {
  return value instanceof ExtBufferClass;
}

/** Makes a function reference for a function found while packing; returns the canonical reference string. */
export type RefMaker = (fn: (...args: unknown[]) => unknown) => string;
/** Turns a reference string found while unpacking into whatever the receiving runtime calls it with. */
export type RefUnpacker = (ref: string) => unknown;

interface LiteEncoder {
  buffer: Uint8Array;
  reserve(length: number): number;
}
interface InternalCodec extends msgpack.Codec {
  encode(encoder: LiteEncoder, value: unknown): void;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

// One codec for the whole process: the per-call maker/unpacker are swapped in around each call (calls are
// synchronous, and a nested pack inside a getter restores the outer one).
let refMaker: RefMaker | null = null;
let refUnpacker: RefUnpacker | null = null;

function createCfxCodec(): InternalCodec {
  const codec = msgpack.createCodec({ uint8array: true, preset: false, binarraybuffer: true }) as InternalCodec;
  const encodeValue = codec.encode.bind(codec);
  // Stock msgpack-lite writes functions as nil; FiveM's fork packs them as ext 10 carrying the reference string.
  codec.encode = (encoder, value) => {
    if (typeof value === 'number' && value !== (value | 0)) {
      // FiveM's fork predates msgpack-lite's uint32 shortcut: every number outside int32 (2 ** 31, Date.now())
      // is a float64, so Lua receives a float.
      const offset = encoder.reserve(9);
      const buffer = encoder.buffer;
      buffer[offset] = 0xcb;
      new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength).setFloat64(offset + 1, value);
      return;
    }
    if (typeof value === 'function') {
      if (!refMaker) throw new Error('cannot pack a function outside a runtime');
      const ref = refMaker(value as (...args: unknown[]) => unknown);
      encodeValue(encoder, new ExtBufferClass(utf8.encode(ref), EXT_FUNCREF));
      return;
    }
    encodeValue(encoder, value);
  };
  const unpackRef = (data: Uint8Array) => {
    const ref = utf8Decoder.decode(data);
    return refUnpacker ? refUnpacker(ref) : ref;
  };
  codec.addExtUnpacker(EXT_FUNCREF, unpackRef);
  codec.addExtUnpacker(EXT_LOCALFUNCREF, unpackRef);
  return codec;
}

const codec = createCfxCodec();

// msgpack.encode allocates a 2 KiB buffer per call; one long-lived encoder writes every payload into the same
// buffer and hands out exact-size copies. A nested pack (a getter packing while being packed) gets its own.
let sharedEncoder: InstanceType<typeof EncodeBuffer> | null = null;
let encoding = false;

function encode(value: unknown): Uint8Array {
  if (encoding) return msgpack.encode(value, { codec }) as unknown as Uint8Array;
  encoding = true;
  try {
    sharedEncoder ??= new EncodeBuffer({ codec });
    sharedEncoder.write(value);
    return sharedEncoder.read();
  } catch (e) {
    sharedEncoder = null; // half-written: start over with a fresh one
    throw e;
  } finally {
    encoding = false;
  }
}

/** Packs a JS value the way a JS runtime does; functions become references made by `maker`. */
export function pack(value: unknown, maker: RefMaker | null): Uint8Array {
  const previous = refMaker;
  refMaker = maker;
  try {
    return encode(value);
  } finally {
    refMaker = previous;
  }
}

/** Unpacks bytes into host-realm JS values; references become whatever `unpacker` returns. */
export function unpack(bytes: Uint8Array, unpacker: RefUnpacker | null): unknown {
  const previous = refUnpacker;
  refUnpacker = unpacker;
  try {
    return msgpack.decode(bytes, { codec });
  } finally {
    refUnpacker = previous;
  }
}

/** A msgpack nil: what a failed reference call returns instead of a result list. */
export const PACKED_NIL = Uint8Array.of(0xc0);

/** Packs an array whose elements are already-packed values, without decoding them. */
export function packArrayOfPacked(items: readonly Uint8Array[]): Uint8Array {
  const n = items.length;
  const head = n < 16 ? [0x90 + n] : [0xdc, n >> 8, n & 0xff];
  let size = head.length;
  for (const item of items) size += item.length;
  const out = new Uint8Array(size);
  out.set(head, 0);
  let offset = head.length;
  for (const item of items) {
    out.set(item, offset);
    offset += item.length;
  }
  return out;
}

/** Decodes a payload for display (event log, errors): references are shown as strings, nothing is called. */
export function describe(bytes: Uint8Array): unknown {
  return unpack(bytes, (ref) => `[funcref ${ref}]`);
}
