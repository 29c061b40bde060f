import type { Community, CommunityModule, CommunityOptions } from './community.js';
import { REDIS_URL_CONVAR } from './redis-convar.js';

/**
 * Where the community's code is, relative to the resource's folder. FXServer's Node runtime makes every resource's
 * global `require` the require of a module at `<resource path>/dummy.js`, searching `<resource path>/node_modules`
 * and the folders above (citizenfx/fivem, code/components/citizen-scripting-node/include/JavaScriptEnvironmentCode.h,
 * `m.filename = Citizen.getResourcePath() + '/dummy.js'`, since 6c7a57388, read at 06d4d348c): so a relative name
 * resolves from the resource's folder, whichever script asks. The file need not be named in fxmanifest.lua: the
 * server mounts each resource's whole folder as `@<name>/` (code/components/citizen-server-impl/src/
 * ServerResources.cpp, `vfs::Mount`) and the Node sandbox lets a script read any mounted path (citizen-scripting-node/
 * src/NodeScriptRuntime.cpp, `NodePermissionCallback`: "no device found" is the only refusal of a read). Listing it as
 * a server_script would run it at every start, which is what this file avoids.
 */
export const COMMUNITY_MODULE_PATH = './dist/redis.js';

/**
 * With BRIDGE_REDIS_URL set, loads dist/redis.js and joins the community; the file is parsed only then, so a server
 * without Redis starts as it always did. Anything wrong leaves one line and a server that runs alone.
 */
export function joinCommunity(options: CommunityOptions): Community | undefined {
  const load = (globalThis as { require?: (id: string) => unknown }).require;
  let loaded: Partial<CommunityModule> | undefined;
  try {
    if (typeof load !== 'function') throw new Error('this runtime has no require');
    loaded = load(COMMUNITY_MODULE_PATH) as Partial<CommunityModule> | undefined;
  } catch (error) {
    // Node's "Cannot find module" goes on with the require stack: its first line says it all.
    const reason = String((error as { message?: unknown } | undefined)?.message ?? error).split('\n')[0];
    options.logger.error(
      `${REDIS_URL_CONVAR} is set but ${COMMUNITY_MODULE_PATH} could not be loaded (${reason}); reinstall the resource. This server runs alone.`,
    );
    return undefined;
  }
  if (typeof loaded?.startCommunity !== 'function') {
    options.logger.error(
      `${COMMUNITY_MODULE_PATH} is not the bridge's community module; reinstall the resource. This server runs alone.`,
    );
    return undefined;
  }
  try {
    return loaded.startCommunity(options);
  } catch (error) {
    options.logger.error(
      `${REDIS_URL_CONVAR}: the community could not start (${String((error as { message?: unknown } | undefined)?.message ?? error)}). This server runs alone.`,
    );
    return undefined;
  }
}
