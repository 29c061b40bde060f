import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, with forward slashes. */
  path: string;
  data: Buffer;
}

// Every entry is dated 1980-01-01 00:00, the first DOS date, so the same files always give the same archive.
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;
const STORE = 0;
// Made by Unix 2.0 with mode -rw-r--r--: extracted files are readable by the server's user, not only the owner.
const UNIX_2_0 = (3 << 8) | 20;
const REGULAR_FILE_0644 = (0o100644 << 16) >>> 0;
// Without zip64 records an archive holds at most 65 535 entries of under 4 GiB each.
const MAX_ENTRIES = 0xffff;
const MAX_SIZE = 0xffffffff;

/**
 * A zip archive of the entries, in their order, as unzip, Windows Explorer and txAdmin read it. Written here
 * because Node has deflate and crc32 but no zip writer, and the format needs only three kinds of record.
 */
export function zip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > MAX_ENTRIES) throw new Error(`a zip without zip64 holds at most ${MAX_ENTRIES} entries`);
  const records: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { path, data } of entries) {
    const name = Buffer.from(path, 'utf8');
    const deflated = deflateRawSync(data, { level: 9 });
    const method = deflated.length < data.length ? DEFLATE : STORE;
    const body = method === DEFLATE ? deflated : data;
    if (data.length > MAX_SIZE || offset > MAX_SIZE) throw new Error(`${path} is too large for a zip without zip64`);
    const crc = crc32(data);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0, deflate
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(UNIX_2_0, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(REGULAR_FILE_0644, 38);
    central.writeUInt32LE(offset, 42);

    records.push(local, name, body);
    directory.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...records, directoryBytes, end]);
}
