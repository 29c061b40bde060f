import { firstValueFrom, map, Subject } from 'rxjs';
import { ChatIdSchema } from '../../shared/contract/chat-id.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import type { CommunityLink, ReadShared } from './community.js';
import type { DutyOwners, LeftOpenOwner } from './duty-owner-api.js';
import { serverIdentity } from './server-identity.js';
import { setAsideWrongType } from './set-aside.js';

/** How long an ended shift's record stays: a crashed server back within it finds who ended the duty after it. */
const ENDED_SHIFT_TTL_S = 7 * 24 * 60 * 60;
/**
 * After Redis answers again (a Redis restarted empty holds no owner at all), how long the other servers have to
 * write again what they hold before "nobody owns it" is believed: more than ioredis's longest reconnect delay (5 s).
 */
export const OWNERS_REWRITTEN_WITHIN_MS = 8_000;

const Name = z.string().check(z.minLength(1), z.maxLength(64));
const OwnerSchema = z.object({ server: Name, shift: Name, ended: z.optional(z.literal(true)) });
const AnnouncementSchema = z.object({ chatId: ChatIdSchema, server: Name, shift: Name });

// Every script names the one key it touches. The owner record is compared as the exact text this server writes, so
// nothing another program wrote there is ever decoded as ours.
const CLAIM = `
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1`;

/** Written again after Redis came back: only over no record, an ended shift, or this very record. */
const CLAIM_AGAIN = `
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then
  local ok, owner = pcall(cjson.decode, current)
  if not (ok and type(owner) == 'table' and owner.ended == true) then return {'held', current} end
end
redis.call('SET', KEYS[1], ARGV[1])
if current ~= ARGV[1] then redis.call('PUBLISH', ARGV[2], ARGV[3]) end
return {'ours'}`;

const END_SHIFT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0`;

const LEFT_OPEN = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return {'ours'}
end
if current then return {'other', current} end
return {'none'}`;

export interface DutyOwnersOptions {
  link: CommunityLink;
  readShared: ReadShared;
  store: Pick<KeyValueStore, 'get' | 'set'>;
  logger: Logger;
  /** Monotonic clock (ms). */
  now: () => number;
  /** Waits on this server's timers. */
  sleep: (ms: number) => Promise<void>;
}

interface Held {
  shift: string;
  /** Redis has the claim: false while it could not be written (Redis gone), so it is written again when it is back. */
  written: boolean;
  /** Another server's claim was heard before this one was written: which came last is read once it is. */
  heardMeanwhile?: boolean;
}

/**
 * The community's duty owners in Redis (see DutyOwners). The panel keeps one duty per chat account; the record under
 * `duty-owner:<chatId>` says which server's shift it is, so a crashed server ends only what is still its own, and a
 * server still holding an account another server took ends its local duty without an `off`. Claims are announced on
 * the `duty-owner` channel (pub/sub in the same script as the write, so no claim goes unannounced; keyspace
 * notifications would need a server setting many hosted Redis refuse, and carry no value). What was announced while
 * this server was away is found when it writes again what it holds.
 */
export function startDutyOwners(options: DutyOwnersOptions): DutyOwners {
  const { link, readShared, logger, now, sleep } = options;
  const server = serverIdentity(options.store, logger);
  const channel = `${link.prefix}duty-owner`;
  const keyOf = (chatId: string) => `${link.prefix}duty-owner:${chatId}`;
  const live = (shift: string) => JSON.stringify({ server, shift });
  const ended = (shift: string) => JSON.stringify({ server, shift, ended: true });
  const announcement = (chatId: string, shift: string) => JSON.stringify({ chatId, server, shift });
  const held = new Map<string, Held>();
  /** Shifts that ended while Redis was gone: marked ended once it is back. */
  const unreleased = new Map<string, string>();
  const taken = new Subject<string>();
  let connectedAt = Number.NEGATIVE_INFINITY;

  const ownerIn = (raw: unknown, chatId: string) => readShared(OwnerSchema, raw, `duty-owner:${chatId}`);
  /** A key holding another type than the string the bridge writes (another program's) is set aside: no owner there. */
  const wrongType = (error: unknown, chatId: string): boolean =>
    setAsideWrongType(link, error, { [keyOf(chatId)]: 'string' }, logger);
  /** A script over the account's owner key that answers `[result, current owner]`; a wrong type is no owner of ours. */
  const ownerScript = (lua: string, chatId: string, args: Array<string | number>): Promise<[string, string?]> =>
    link.script<[string, string?]>(lua, [keyOf(chatId)], args).catch((error) => {
      if (wrongType(error, chatId)) return ['not ours'] as [string, string?];
      throw error;
    });

  const claim = (chatId: string, shift: string, how: 'new' | 'again') => {
    const entry: Held = { shift, written: false };
    held.set(chatId, entry);
    const args = [live(shift), channel, announcement(chatId, shift)];
    const write = how === 'new' ? link.script(CLAIM, [keyOf(chatId)], args) : claimAgain(chatId, args);
    write.then(
      () => {
        entry.written = true;
        if (entry.heardMeanwhile) verify(chatId);
      },
      () => {
        // Redis is gone (told once by the link): written again when it answers.
      },
    );
  };

  /** Whose the account is now, read back: another server's record ends this server's hold of it. */
  const verify = (chatId: string) => {
    link.call<string | null>('GET', keyOf(chatId)).then(
      (raw) => {
        const mine = held.get(chatId);
        if (!mine?.written || raw === live(mine.shift)) return;
        const owner = ownerIn(raw, chatId);
        if (!owner || owner.server === server) return;
        held.delete(chatId);
        taken.next(chatId);
      },
      () => {
        // Redis is gone: what this server holds is written again, and checked, when it answers.
      },
    );
  };

  const claimAgain = async (chatId: string, args: string[]): Promise<void> => {
    const [result, current] = await ownerScript(CLAIM_AGAIN, chatId, args);
    if (result === 'ours') return;
    const owner = ownerIn(current, chatId);
    if (owner) {
      held.delete(chatId);
      taken.next(chatId);
      return;
    }
    // Not an owner record (set aside in the log): this server's shift is the one the panel has.
    await link.script(CLAIM, [keyOf(chatId)], args);
  };

  const release = (chatId: string, shift: string) => {
    if (held.get(chatId)?.shift === shift) held.delete(chatId);
    unreleased.delete(chatId);
    link.script(END_SHIFT, [keyOf(chatId)], [live(shift), ended(shift), ENDED_SHIFT_TTL_S]).catch((error) => {
      if (!wrongType(error, chatId)) unreleased.set(chatId, shift);
    });
  };

  // Another server's claim of an account this server holds: read back, since this server's own claim may have been
  // written after it (the record is the truth, the announcement only the news). Heard while this server's own claim
  // is not written yet, it is read back once that claim is.
  link
    .messages$(channel)
    .pipe(map((message) => readShared(AnnouncementSchema, message, 'the duty-owner channel')))
    .subscribe((claimed) => {
      const mine = claimed && claimed.server !== server ? held.get(claimed.chatId) : undefined;
      if (!claimed || !mine) return;
      if (mine.written) verify(claimed.chatId);
      else mine.heardMeanwhile = true;
    });

  // Redis answers (again): what this server holds is written again (a claim it could not write wins; one it had
  // written is written only if nobody took the account meanwhile), and shifts that ended meanwhile are marked ended.
  // The announcements of the others' writes may be missed meanwhile (the subscribing connection comes back on its own
  // schedule), so once they all had time to write again, every account still held is read back.
  link.connected$.subscribe(() => {
    const at = now();
    connectedAt = at;
    for (const [chatId, { shift, written }] of [...held]) claim(chatId, shift, written ? 'again' : 'new');
    for (const [chatId, shift] of [...unreleased]) release(chatId, shift);
    void sleep(OWNERS_REWRITTEN_WITHIN_MS).then(() => {
      if (connectedAt !== at || !link.isUp) return;
      for (const chatId of [...held.keys()]) verify(chatId);
    });
  });

  const leftOpen = async (chatId: string, shift: string, afterGrace = false): Promise<LeftOpenOwner> => {
    const [result, current] = await ownerScript(LEFT_OPEN, chatId, [live(shift), ended(shift), ENDED_SHIFT_TTL_S]);
    if (result === 'ours') return { kind: 'ours' };
    const owner = result === 'other' ? ownerIn(current, chatId) : undefined;
    if (owner) return { kind: 'taken', server: owner.server };
    const waited = now() - connectedAt;
    if (afterGrace || waited >= OWNERS_REWRITTEN_WITHIN_MS) return { kind: 'nobody' };
    await sleep(OWNERS_REWRITTEN_WITHIN_MS - waited);
    return leftOpen(chatId, shift, true);
  };

  // At start the kept calls go out as soon as the panel answers, often before Redis has: wait for Redis's first
  // answer (or failure, at most its connect timeout), not for a reconnection.
  const ownerElsewhere = async (chatId: string): Promise<string | undefined> => {
    await firstValueFrom(link.up$, { defaultValue: false });
    const owner = ownerIn(await link.call<string | null>('GET', keyOf(chatId)), chatId);
    return owner && owner.server !== server ? owner.server : undefined;
  };

  return {
    server,
    ownerElsewhere,
    claim: (chatId, shift) => claim(chatId, shift, 'new'),
    release,
    leftOpen: (chatId, shift) => leftOpen(chatId, shift),
    takenElsewhere$: taken.asObservable(),
    up$: link.up$,
  };
}
