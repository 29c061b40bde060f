import type { NotificationStyle } from '../../shared/locale.js';
import type { ClientPort } from '../client-port.js';
import type { NoticeType } from './notice-type.js';

export interface Notice {
  title: string;
  text: string;
  type: NoticeType;
}

const OX_LIB = 'ox_lib';

/**
 * Shows notices the way the server is set up: through ox_lib while it is started (checked per notice, so ox_lib
 * starting or stopping later is followed), in the game's feed otherwise. An empty text is a message the owner
 * silenced in Config.Locale.
 */
export function createNotifier(port: ClientPort, style: NotificationStyle): (notice: Notice) => void {
  let oxLibFailed = false;
  return ({ title, text, type }) => {
    if (text === '') return;
    if (style === 'auto' && port.resourceState(OX_LIB) === 'started') {
      try {
        // What lib.notify does in another resource: ox_lib exports every lib function, notify among them.
        port.callExport(OX_LIB, 'notify', { title, description: text, type });
        return;
      } catch (error) {
        if (!oxLibFailed) port.log(`ox_lib's notify failed, using the feed instead: ${String(error)}`);
        oxLibFailed = true;
      }
    }
    port.showFeed(text);
  };
}
