// A player's duty on their replicated state bag (`bridge:duty`): published on every change, and guarded against a
// client's own writes.
import type { Observable, Subscription } from 'rxjs';
import { DUTY_STATE_BAG_KEY, type PlayerDuty } from '../../shared/events.js';
import type { DutyEffect, DutyState } from '../duty/index.js';
import { dutyEffect } from '../duty/index.js';
import type { BridgeRuntime, Logger, PlayerStateWrite, ServerPort } from '../kernel/index.js';

export const playerDutyOf = ({ onDuty, departmentId, departmentSlug, rankId, since }: DutyState): PlayerDuty => ({
  onDuty,
  departmentId,
  departmentSlug,
  rankId,
  since,
});

/**
 * Publishes a player's duty on their replicated state bag (`Player(src).state['bridge:duty']`), so any resource on
 * either side reads it without an export.
 */
export function publishDutyState(
  setPlayerState: (src: number, key: string, value: unknown) => void,
  src: number,
  state: DutyState,
): void {
  setPlayerState(src, DUTY_STATE_BAG_KEY, playerDutyOf(state));
}

/** The bag is the bridge's word on duty; a client's write to its own bag is put back (see StateBagGuard). */
export function guardDutyStateBags(
  port: Pick<ServerPort, 'playerStateWrites' | 'setPlayerState'>,
  runtime: Pick<BridgeRuntime, 'sleep'>,
  logger: Logger,
): StateBagGuard {
  return new StateBagGuard({
    keys: [DUTY_STATE_BAG_KEY],
    writes$: port.playerStateWrites([DUTY_STATE_BAG_KEY]),
    setPlayerState: (src, key, value) => port.setPlayerState(src, key, value),
    later: (work) => void runtime.sleep(0).then(work),
    logger,
  });
}

/** Each player's duty on their replicated state bag, through the guard that puts back a client's own writes. */
export const publishDutyStateBags = (stateBags: Pick<StateBagGuard, 'publish'>, logger: Logger): DutyEffect =>
  dutyEffect('state bag', logger, ({ src, next }) =>
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, next),
  );

export interface StateBagGuardOptions {
  /** The keys the bridge owns on player bags. */
  keys: readonly string[];
  /** Every set of those keys, before it is stored (ServerPort.playerStateWrites). */
  writes$: Observable<PlayerStateWrite>;
  setPlayerState(src: number, key: string, value: unknown): void;
  /** Runs `work` once the write being handled has been stored: on FXServer, the next tick. */
  later(work: () => void): void;
  logger: Logger;
}

/**
 * Keeps the bridge's keys on player state bags the bridge's own. Without `sv_stateBagStrictMode`, FiveM's default, a
 * client may write its own player bag, replicated, and every resource that reads duty from the bag would believe it.
 * Change handlers cannot refuse a set, and the set is stored after they return; so any write that does not carry the
 * bridge's value is answered, a tick later, by setting the bridge's value again (or deleting the key when the bridge
 * has none). The bridge's own sets carry its value and pass, so nothing loops.
 */
export class StateBagGuard {
  private readonly keys: ReadonlySet<string>;
  /** What the bridge last set, per player and key, in comparable form; absent when it set nothing. */
  private readonly published = new Map<number, Map<string, { value: unknown }>>();
  /** `src` → keys with a restore waiting for the next tick: a flood of writes costs one set per tick. */
  private readonly pending = new Map<number, Set<string>>();
  /** Players already named in a warning this session: a flooding client gets one line. */
  private readonly warned = new Set<number>();
  /** The player and key of the set publish() is making now: its own change handler passes without a comparison. */
  private settingSrc: number | undefined;
  private settingKey: string | undefined;
  private readonly subscription: Subscription;

  constructor(private readonly options: StateBagGuardOptions) {
    this.keys = new Set(options.keys);
    this.subscription = options.writes$.subscribe((write) => this.check(write));
  }

  /** Sets a key the bridge owns; every set of it should come through here. */
  publish(src: number, key: string, value: unknown): void {
    const values = this.published.get(src) ?? new Map<string, { value: unknown }>();
    // Recorded before the set: its change handler runs inside it and must recognise the bridge's own value.
    values.set(key, { value });
    this.published.set(src, values);
    this.settingSrc = src;
    this.settingKey = key;
    try {
      this.options.setPlayerState(src, key, value);
    } finally {
      this.settingSrc = undefined;
      this.settingKey = undefined;
    }
  }

  /** Players something is held for: zero once everyone has left. */
  get size(): number {
    return new Set([...this.published.keys(), ...this.pending.keys(), ...this.warned]).size;
  }

  /** The player left: their bag is gone, and so is anything waiting for it. */
  forget(src: number): void {
    this.published.delete(src);
    this.pending.delete(src);
    this.warned.delete(src);
  }

  stop(): void {
    this.subscription.unsubscribe();
    this.pending.clear();
  }

  private check({ src, key, value }: PlayerStateWrite): void {
    if (!this.keys.has(key)) return;
    // The bridge's own set carries its value by construction (a write handled later is compared as any other).
    if (src === this.settingSrc && key === this.settingKey) return;
    const own = this.published.get(src)?.get(key);
    if (comparable(value) === comparable(own?.value ?? null)) return;
    this.warnOnce(src, key);
    const waiting = this.pending.get(src) ?? new Set<string>();
    if (waiting.has(key)) return;
    waiting.add(key);
    this.pending.set(src, waiting);
    this.options.later(() => this.restore(src, key));
  }

  private restore(src: number, key: string): void {
    const waiting = this.pending.get(src);
    if (!waiting?.delete(key)) return;
    if (waiting.size === 0) this.pending.delete(src);
    // The bridge's value now, which may be newer than when the write came in.
    this.options.setPlayerState(src, key, this.published.get(src)?.get(key)?.value ?? null);
  }

  private warnOnce(src: number, key: string): void {
    if (this.warned.has(src)) return;
    this.warned.add(src);
    this.options.logger.warn(
      `player ${src}: ${key} on their state bag was written by something other than the bridge and is put back ` +
        '(a client can write its own bag unless the server sets `setr sv_stateBagStrictMode true`); ' +
        'further writes for this player are put back without a log line',
    );
  }
}

/** Values as a state bag carries them: object key order and undefined (msgpack nil) do not matter. */
function comparable(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) => {
    if (inner === undefined) return null;
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
