import type { ResourcePort } from '../../kernel/index.js';

/** Other resources as FXServer shows them: their state, their exports, and local server events. */
export function createResourcePort(): ResourcePort {
  return {
    resourceState: (name) => GetResourceState(name),
    hasExport(resource, name) {
      // A lookup of a missing export throws in FiveM; that is the answer "no".
      try {
        return typeof exports[resource]?.[name] === 'function';
      } catch {
        return false;
      }
    },
    callExport(resource, name, ...args) {
      const fn = exports[resource]?.[name];
      if (typeof fn !== 'function') throw new Error(`No such export ${name} in resource ${resource}`);
      return fn(...args);
    },
    emitLocal: (event, ...args) => emit(event, ...args),
    emitClient: (event, src, ...args) => emitNet(event, src, ...args),
    globalState: (key) => GlobalState[key],
    // Plain `on`, never `onNet`: a client must not be able to fake another resource's server event.
    onLocal: (event, handler) => on(event, handler),
  };
}
