// Players as the server knows them (fivem-runtime.md §4): temporary ids (65536 + n) while connecting, final ids
// assigned sequentially from 1 at joining (never 0 or 65535), identifiers as `type:value` strings.
export interface PlayerRecord {
  id: number;
  readonly tempId: number;
  readonly name: string;
  readonly identifiers: readonly string[];
  readonly tokens: readonly string[];
  readonly endpoint: string;
  /** The client-side player index (PlayerId()); assigned at joining. */
  slot: number;
  state: 'connecting' | 'joined' | 'dropped';
  /** The server's references made for playerConnecting (setKickReason, the deferrals), freed when the player leaves. */
  connectionRefs: readonly number[];
}

export class PlayerRegistry {
  private readonly byId = new Map<number, PlayerRecord>();
  private nextTemp = 1;
  private nextId = 1;
  private readonly slots = new Set<number>();

  connecting(fields: Pick<PlayerRecord, 'name' | 'identifiers' | 'tokens' | 'endpoint'>): PlayerRecord {
    const record: PlayerRecord = {
      ...fields,
      id: 0,
      tempId: 65536 + this.nextTemp++,
      slot: -1,
      state: 'connecting',
      connectionRefs: [],
    };
    this.byId.set(record.tempId, record);
    return record;
  }

  join(record: PlayerRecord): void {
    let id = this.nextId;
    while (id === 0 || id === 65535 || this.byId.has(id)) id = id >= 65534 ? 1 : id + 1;
    this.nextId = id >= 65534 ? 1 : id + 1;
    record.id = id;
    record.state = 'joined';
    let slot = 0;
    while (this.slots.has(slot)) slot++;
    this.slots.add(slot);
    record.slot = slot;
    this.byId.delete(record.tempId);
    this.byId.set(id, record);
  }

  remove(record: PlayerRecord): void {
    record.state = 'dropped';
    this.byId.delete(record.tempId);
    if (record.id) this.byId.delete(record.id);
    this.slots.delete(record.slot);
  }

  /** Players connecting or joined. */
  get size(): number {
    return this.byId.size;
  }

  /** A player by final or temporary id (natives accept both; temp ids only while connecting). */
  get(id: number): PlayerRecord | undefined {
    return this.byId.get(id);
  }

  bySlot(slot: number): PlayerRecord | undefined {
    return this.joined().find((p) => p.slot === slot);
  }

  /** Fully connected players, in join order. */
  joined(): PlayerRecord[] {
    return [...this.byId.values()].filter((p) => p.state === 'joined');
  }
}

/** atoi: leading digits of a string (natives take player ids as char*). */
export function atoi(value: unknown): number {
  const m = /^\s*[+-]?\d+/.exec(String(value));
  return m ? Number.parseInt(m[0], 10) : 0;
}
