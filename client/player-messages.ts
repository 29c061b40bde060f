import { formatMessage } from '../shared/locale.js';
import type { ClientPort } from './client-port.js';
import { noticeTypeOf } from './notifications/notice-type.js';
import { createNotifier } from './notifications/notifier.js';
import type { ClientSettings } from './settings.js';

// A profile that failed for the panel's sake says so with its own words: the duty error of that name means a
// duty change the panel did not answer.
export const profileMessageKey = (error: string): string =>
  error === 'panel_unavailable' ? 'panel_unavailable_profile' : error;

export interface PlayerMessages {
  /** The text of a message in the owner's words; an unknown key (a newer server's error code) is shown as is. */
  text(key: string, params?: Record<string, unknown>): string;
  /** Shows the message as a notification. */
  say(key: string, params?: Record<string, unknown>): void;
}

export function createPlayerMessages(port: ClientPort, settings: ClientSettings): PlayerMessages {
  const table = settings.messages;
  const notify = createNotifier(port, settings.notifications);
  const text = (key: string, params?: Record<string, unknown>) => formatMessage(table, key, params);
  return {
    text,
    say: (key, params) => notify({ title: table.notification_title, text: text(key, params), type: noticeTypeOf(key) }),
  };
}
