import { wiredExport } from '../../shared/wire-integers.js';
import type { ClientPort } from '../client-port.js';

// Events from the server arrive with source 65535; a local emit by another client script has source "".
const SERVER_SOURCE = 65535;

/** The client side's one contact with FiveM globals. */
export function createClientPort(): ClientPort {
  return {
    onServer(event, handler) {
      onNet(event, (...args: unknown[]) => {
        if (Number(source) !== SERVER_SOURCE) return;
        handler(...args);
      });
    },
    emitServer: (event, ...args) => emitNet(event, ...args),
    registerExport: (name, fn) => exports(name, wiredExport(fn)),
    registerCommand(name, help, handler, params = []) {
      RegisterCommand(
        name,
        (_source: number, args: unknown) => handler(Array.isArray(args) ? args.map(String) : []),
        false,
      );
      emit('chat:addSuggestion', `/${name}`, help, params);
    },
    // config.lua is a shared script: it ran in this client's Lua runtime before this bundle and exported its table.
    readConfig: () => exports[GetCurrentResourceName()]?.GetConfig?.(),
    resourceState: (name) => GetResourceState(name),
    callExport(resource, name, ...args) {
      const fn = exports[resource]?.[name];
      if (typeof fn !== 'function') throw new Error(`${resource} has no export ${name}`);
      return fn(...args);
    },
    replicatedConvar: (name) => GetConvar(name, ''),
    chatMessage: (author, text) => emit('chat:addMessage', { args: [author, text] }),
    showFeed(text) {
      BeginTextCommandThefeedPost('STRING');
      AddTextComponentSubstringPlayerName(text);
      EndTextCommandThefeedPostTicker(false, true);
    },
    log: (line) => console.log(line),
    now: () => GetGameTimer(),
  };
}
