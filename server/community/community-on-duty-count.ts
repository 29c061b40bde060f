import type { Subscription } from 'rxjs';
import { COMMUNITY_ON_DUTY_COUNT_KEY, type OnDutyCounts } from '../../shared/events.js';
import type { Logger } from '../kernel/index.js';
import type { CommunityCounts } from './community.js';

/**
 * `GlobalState['bridge:communityOnDutyCount']` and `GetCommunityOnDutyCount`: the on-duty counts of every server of
 * the community (BRIDGE_REDIS_URL), or this server's own without Redis. Set at start and on every change; an
 * unchanged value is not set again.
 */
export class CommunityOnDutyCount {
  private current: OnDutyCounts = { total: 0 };
  private published = '';
  private subscription: Subscription | undefined;

  constructor(
    private readonly setGlobalState: (key: string, value: unknown) => void,
    private readonly logger: Logger,
    /** Absent without Redis: the community is this server alone. */
    private readonly community?: CommunityCounts,
  ) {
    this.subscription = community?.counts$.subscribe((counts) => this.set(counts));
    if (!community) this.set(this.current);
  }

  /** This server's own counts, as `bridge:onDutyCount` has them after each change. */
  own(counts: OnDutyCounts): void {
    if (this.community) this.community.publish(counts);
    else this.set(counts);
  }

  /** Players on duty in the department with this slug over the community, or in all of them without one. */
  count(slug?: unknown): number {
    if (slug === undefined || slug === null) return this.current.total;
    // A slug is a string; anything else names no department (as GetOnDutyCount).
    return typeof slug === 'string' ? (this.current[slug] ?? 0) : 0;
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  private set(counts: OnDutyCounts): void {
    this.current = counts;
    const text = JSON.stringify(counts);
    if (text === this.published) return;
    try {
      this.setGlobalState(COMMUNITY_ON_DUTY_COUNT_KEY, counts);
      this.published = text;
    } catch (error) {
      this.logger.error(`the community's on-duty count could not be published: ${String(error)}`);
    }
  }
}
