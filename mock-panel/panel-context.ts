import type { RateLimitHeaderStyle } from './http/rate-limit-headers';
import type { PanelStore } from './store';

/** What every handler needs: the state, the token, and how this panel is configured. */
export interface PanelContext {
  store: PanelStore;
  token: string;
  rateLimitHeaders: RateLimitHeaderStyle;
  /** The client address of a request under msw (the node:http server reads the socket's own). */
  clientIpOf(request: Request): string;
  /** Called with unexpected (not injected) handler errors before they become a 500. */
  onUnexpectedError(error: unknown): void;
}
