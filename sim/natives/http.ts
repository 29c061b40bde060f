// SET_HTTP_HANDLER: the calling resource's handler of `http://server:30120/<resource>/…` (see server/http.ts).
import { str } from './args.js';
import { defineNatives } from './registry.js';

defineNatives('server', {
  SetHttpHandler: (ctx, ...a) => {
    ctx.host.world.http.set(ctx.resource, str(a, 0));
  },
});
