// Client text commands (fivem-runtime.md §12): feed notifications, help text and subtitles are recorded on the
// player as what the screen would show.
import { str } from './args.js';
import { defineNatives, type NativeContext } from './registry.js';

const begin = (kind: 'feed' | 'help' | 'subtitle') => (ctx: NativeContext) => {
  ctx.host.client?.beginText(kind);
};
const end = (kind: 'feed' | 'help' | 'subtitle') => (ctx: NativeContext) => {
  ctx.host.client?.endText(kind);
  return kind === 'feed' ? (ctx.host.client?.notifications.length ?? 0) : undefined;
};
const add = (ctx: NativeContext, ...a: unknown[]) => {
  ctx.host.client?.addText(String(a[0] ?? ''));
};

defineNatives('client', {
  BeginTextCommandThefeedPost: begin('feed'),
  SetNotificationTextEntry: begin('feed'),
  EndTextCommandThefeedPostTicker: end('feed'),
  DrawNotification: end('feed'),
  BeginTextCommandDisplayHelp: begin('help'),
  EndTextCommandDisplayHelp: end('help'),
  BeginTextCommandPrint: begin('subtitle'),
  EndTextCommandPrint: end('subtitle'),
  AddTextComponentSubstringPlayerName: add,
  AddTextComponentString: add,
  AddTextComponentInteger: add,
  SetNuiFocus: () => undefined,
  SendNuiMessage: (ctx, ...a) => {
    ctx.host.world.recordNuiMessage(ctx.host, ctx.resource, str(a, 0));
    return true;
  },
});
