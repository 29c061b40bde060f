import { crc32, inflateRawSync } from 'node:zlib';

export interface ZipFileEntry {
  path: string;
  data: Buffer;
  /** Unix mode from the central directory (0 when the archive gave none). */
  mode: number;
}

/**
 * Reads a zip through its central directory, as unzip does, checking each entry's local header and CRC, so a
 * writer's offset or size error fails here instead of on a server owner's machine.
 */
export function readZip(archive: Buffer): ZipFileEntry[] {
  const end = archive.length - 22;
  if (archive.readUInt32LE(end) !== 0x06054b50) throw new Error('no end of central directory record');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const entries: ZipFileEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`entry ${index}: bad central directory record`);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const compressedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const mode = archive.readUInt32LE(at + 38) >>> 16;
    const localAt = archive.readUInt32LE(at + 42);
    const path = archive.toString('utf8', at + 46, at + 46 + nameLength);
    if (archive.readUInt32LE(localAt) !== 0x04034b50) throw new Error(`${path}: bad local header`);
    if (archive.toString('utf8', localAt + 30, localAt + 30 + archive.readUInt16LE(localAt + 26)) !== path) {
      throw new Error(`${path}: the local header names another file`);
    }
    const bodyAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const body = archive.subarray(bodyAt, bodyAt + compressedSize);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    if (data.length !== size || crc32(data) !== crc) throw new Error(`${path}: size or CRC does not match`);
    entries.push({ path, data, mode });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
