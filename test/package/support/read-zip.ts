import { unzipSync } from 'fflate';

export interface ZipFileEntry {
  path: string;
  data: Buffer;
  /** 0 stored, 8 deflated. */
  compression: number;
  /** Unix mode from the central directory (0 when the archive gave none). */
  mode: number;
}

const CENTRAL_DIRECTORY_RECORD = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

/** Each entry's Unix mode, in central directory order: fflate's unzip does not report the external attributes. */
function unixModes(archive: Buffer): number[] {
  const end = archive.length - 22;
  if (archive.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) throw new Error('no end of central directory record');
  const modes: number[] = [];
  for (let index = 0, at = archive.readUInt32LE(end + 16); index < archive.readUInt16LE(end + 10); index++) {
    if (archive.readUInt32LE(at) !== CENTRAL_DIRECTORY_RECORD) throw new Error(`entry ${index}: bad record`);
    modes.push(archive.readUInt32LE(at + 38) >>> 16);
    at += 46 + archive.readUInt16LE(at + 28) + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
  }
  return modes;
}

/** Reads a zip through its central directory, as unzip does. */
export function readZip(archive: Uint8Array): ZipFileEntry[] {
  const compression = new Map<string, number>();
  const files = unzipSync(archive, {
    filter: (file) => {
      compression.set(file.name, file.compression);
      return true;
    },
  });
  const modes = unixModes(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
  return Object.entries(files).map(([path, data], index) => ({
    path,
    data: Buffer.from(data),
    compression: compression.get(path) ?? -1,
    mode: modes[index] ?? 0,
  }));
}
