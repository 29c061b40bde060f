// Commands and ACEs (fivem-runtime.md §6). ExecuteCommand runs a console line with source 0; on the server as the
// principal `resource.<name>` (it needs `command.<name>` like anyone else), where the console's own commands (set,
// add_ace, add_principal, ensure…) are available too.
import { bool, str } from './args.js';
import { defineNatives } from './registry.js';

defineNatives('shared', {
  RegisterCommand: (ctx, ...a) => {
    ctx.host.commands.register(ctx.resource, str(a, 0), str(a, 1), bool(a, 2));
  },
  ExecuteCommand: (ctx, ...a) => {
    const line = str(a, 0);
    if (ctx.host.side === 'server') ctx.host.world.executeCommand(ctx.resource, line);
    else ctx.host.world.clientCommand(ctx.host, line);
  },
  GetRegisteredCommands: (ctx) => ctx.host.commands.names().map((name) => ({ name, resource: '', arity: -1 })),
});

defineNatives('server', {
  /** The calling resource's own ACE (principal `resource.<name>`). */
  IsAceAllowed: (ctx, ...a) => ctx.host.world.aces.isAllowed(`resource.${ctx.resource}`, str(a, 0)),
  IsPrincipalAceAllowed: (ctx, ...a) => ctx.host.world.aces.isAllowed(str(a, 0), str(a, 1)),
});

defineNatives('client', {
  RegisterKeyMapping: (ctx, ...a) => {
    ctx.host.client?.keyMappings.set(str(a, 0), {
      description: String(a[1] ?? ''),
      mapper: String(a[2] ?? ''),
      key: String(a[3] ?? ''),
    });
  },
});
