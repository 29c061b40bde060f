// What the heap holds, from a V8 heap snapshot (v8.getHeapSnapshot(): reachable objects only, after a full
// collection): bytes by node type, split into the program's data and V8's own (compiled code, feedback and other
// internals, hidden classes). The code part grows as the JIT optimises more functions whatever the program keeps,
// and flips between runs; the data part is what a leak would grow.
import { getHeapSnapshot } from 'node:v8';

/** Node types that are V8's, not the program's: code and its metadata ('code'), internals ('hidden'), maps. */
const V8_TYPES = new Set(['code', 'hidden', 'object shape', 'synthetic']);

export interface HeapSummary {
  /** Self size by node type (object, string, array, closure, code, hidden …). */
  byType: Record<string, number>;
  dataBytes: number;
  v8Bytes: number;
}

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
}

export async function heapSummary(): Promise<HeapSummary> {
  const chunks: Buffer[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(Buffer.from(chunk as Buffer));
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SnapshotJson;
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const typeAt = fields.indexOf('type');
  const sizeAt = fields.indexOf('self_size');
  const byType: Record<string, number> = {};
  const { nodes } = snapshot;
  for (let index = 0; index < nodes.length; index += fields.length) {
    const type = types[nodes[index + typeAt] as number] as string;
    byType[type] = (byType[type] ?? 0) + (nodes[index + sizeAt] as number);
  }
  let dataBytes = 0;
  let v8Bytes = 0;
  for (const [type, bytes] of Object.entries(byType)) {
    if (V8_TYPES.has(type)) v8Bytes += bytes;
    else dataBytes += bytes;
  }
  return { byType, dataBytes, v8Bytes };
}

/** `after` minus `before`, by type and in total. */
export function heapDiff(before: HeapSummary, after: HeapSummary): HeapSummary {
  const byType: Record<string, number> = {};
  for (const type of new Set([...Object.keys(before.byType), ...Object.keys(after.byType)])) {
    byType[type] = (after.byType[type] ?? 0) - (before.byType[type] ?? 0);
  }
  return { byType, dataBytes: after.dataBytes - before.dataBytes, v8Bytes: after.v8Bytes - before.v8Bytes };
}
