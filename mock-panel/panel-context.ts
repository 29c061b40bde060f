import type { RateLimitHeaderStyle } from './http/rate-limit-headers';
import type { PanelStore } from './store';

/** What every handler needs: the state, the token, and how this panel is configured. */
export interface PanelContext {
  store: PanelStore;
  token: string;
  rateLimitHeaders: RateLimitHeaderStyle;
  /** The socket address over real HTTP; the panel's in-process address under msw/node. */
  clientIpOf(request: Request): string;
  /** Called with unexpected (not injected) handler errors before they become a 500. */
  onUnexpectedError(error: unknown): void;
}
