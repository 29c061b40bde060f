// What dist/server.js sees of the community's duty owners (issues 25 and 30). Types and one tiny function: the Redis
// side is server/community/duty-owners.ts, in dist/redis.cjs. How it works: docs/several-servers.md, "How an account's
// duty is fenced".
import type { Observable } from 'rxjs';
import type { CallFence, FenceGate } from '../duty/index.js';
import type { HeldForRedis } from './held-for-redis.js';

/** A fenced call, right before one of its attempts. */
export interface FenceRequest {
  chatId: string;
  action: 'on' | 'off';
  fence: CallFence;
  /** The department an `off` ends (a record Redis lost is written again with it). */
  departmentId: number | undefined;
  /** A call a run before this one kept (its KVP may be a copied folder's). */
  fromLastRun: boolean;
  /** How long after the confirmation the attempt may still reach the panel (ms): Redis's `quiet` moves past it. */
  leaseMs: number;
}

export type FenceAnswer =
  /** The claim is the account's current one: send the attempt now (its lease runs from the confirmation). */
  | { kind: 'go' }
  /** Not this call's to send any more: another claim holds the account, or this one has ended. */
  | { kind: 'stale'; why: string };

/** A duty this server held that the community settled on another server's claim. */
export interface TakenElsewhere {
  chatId: string;
  /** The shift of this server that lost: only that duty ends. */
  shift: string;
  /** `replaced`: another server's claim was heard as it came; `superseded`: found in settling after a fault. */
  reason: 'replaced' | 'superseded';
  /** The winning claim had ended already: this duty's own session may be the one left at the panel. */
  panelOff: boolean;
}

/** A server whose liveness lapsed, with the duties it owned that this server now ends at the panel. */
export interface LapsedServer {
  server: string;
  /** How long before it was taken out it had last renewed its liveness (ms, Redis's clock). */
  silentForMs: number;
  /** Each claimed duty by its shift; `shift` undefined: an `on` it sent that died with it before it was claimed. */
  duties: Array<{ chatId: string; shift: string | undefined; departmentId: number | undefined }>;
}

/**
 * What the duty owners still have to do on their own after a fault, with no call of anyone's: `bridge status` shows
 * it, so an owner (or a test) knows when the community has settled.
 */
export interface Settling {
  /** Claims of this server not yet written, nor learnt lost: retried until Redis answers. */
  claims: number;
  /** This server's `on`s to send again once another server's calls are over, and the first one's wait (ms). */
  restates: number;
  nextRestateInMs: number | undefined;
  /** When every claim is checked again after Redis came back (ms), if that is still to come. */
  checkAgainInMs: number | undefined;
  /** Lapsed servers whose duties this server is reading, to end them at the panel. */
  takeovers: number;
}

/** A shift held on another server that this server's session took over: the duty it goes on with. */
export interface HeldElsewhere {
  departmentId: number;
  rankId: number;
  /** When the duty began (ms, the holder's `since`). */
  since: number;
  /** How long the window has left (ms): not back by then in game here, the shift ends. */
  leftMs: number;
}

/**
 * The duty owner of each chat account across the community, kept in Redis under `<prefix>duty-owner:<chatId>`. Nothing
 * here blocks: claims are retried in the background, and a confirmation rejects while Redis cannot give one.
 */
export interface DutyOwners {
  /** This server's duty started (the panel took its `on`, or in degraded mode `queue` will): it claims the account. */
  claim(chatId: string, shift: string, departmentId: number): void;
  /** This server's shift of the account ended in game (its fenced `off`, if any, is in the outbox). */
  release(chatId: string, shift: string): void;
  /**
   * This server's shift is held after its game crashed (Config.ResumeWindowMs): its record says so, and until when on
   * Redis's clock, so the account may take it over on another server. Best effort: without it the shift is only held
   * here.
   */
  hold(chatId: string, shift: string, held: { windowMs: number; since: number; rankId: number }): void;
  /**
   * The account joined this server as session `src`: if its shift is held on another server and its window is not
   * over, this server's claim takes it over (fenced, nothing sent to the panel) and its duty is returned.
   */
  takeHeld(chatId: string, src: number): Promise<HeldElsewhere | undefined>;
  /** An `on` of a new duty (not fenced: its claim follows) leaves for the panel now. */
  sending(chatId: string): void;
  /**
   * Right before an `on` of a new duty leaves: announced in Redis, so a peer ends it if this server dies before its
   * claim is written. Never rejects, and waits at most one Redis command (nothing while Redis is down).
   */
  intend(chatId: string, departmentId: number): Promise<void>;
  /** Right before an attempt of a fenced call. Rejects while Redis cannot confirm: the call waits. */
  confirm(request: FenceRequest): Promise<FenceAnswer>;
  /** A fenced call was delivered: an `off` marks its claim ended. */
  delivered(request: FenceRequest): void;
  /** Redis answers (again): calls waiting for a confirmation try at once. */
  readonly answers$: Observable<void>;
  /** Duties of this server that the community settled on another server's claim: they end in game, without an `off`. */
  readonly takenElsewhere$: Observable<TakenElsewhere>;
  /** This server's claim must send its `on` again (another server's calls may have reached the panel after it). */
  readonly restate$: Observable<{ chatId: string; shift: string }>;
  /** A server whose liveness lapsed, taken by this server: its duties are to be ended at the panel, fenced. */
  readonly lapsed$: Observable<LapsedServer>;
  /** What is left to settle now. */
  settling(): Settling;
  /**
   * The fence for this server's outbox; what it holds is listed in `heldForRedis`, and an attempt confirmed must leave
   * within a request timeout (`requestTimeoutMs`, which also bounds how long it may take).
   */
  fenceGate(options: { heldForRedis: Pick<HeldForRedis, 'hold'>; requestTimeoutMs: number }): FenceGate;
  stop(): void;
}
