import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Copies of a laid-out resource folder (bench/support/resources.ts) with its fxmanifest.lua edited, for the micro
 * figures. Only the manifest changes and files are added: the bundles are copied byte for byte, whatever is in them.
 */
export class ResourceVariants {
  private readonly root = mkdtempSync(join(tmpdir(), 'bridge-bench-micro-'));
  private copies = 0;

  constructor(private readonly resource: string) {}

  /** A fresh folder named `bridge`: the simulator compiles a script again for every new path (it caches by path). */
  copy(editManifest: (manifest: string) => string = (manifest) => manifest, extraFiles: Record<string, string> = {}) {
    const dir = join(this.root, String(++this.copies), 'bridge');
    cpSync(this.resource, dir, { recursive: true });
    const manifest = join(dir, 'fxmanifest.lua');
    writeFileSync(manifest, editManifest(readFileSync(manifest, 'utf8')));
    for (const [file, content] of Object.entries(extraFiles)) writeFileSync(join(dir, file), content);
    return dir;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * The resource with nothing on the clients: shared scripts run on the server only and client scripts are dropped.
 * For figures about the server's state at 2048 players, where 2048 client runtimes would only cost the simulator.
 */
export function serverOnlyManifest(manifest: string): string {
  const edited = manifest
    .replace(/^(\s*)shared_script(s?)\b/gm, '$1server_script$2')
    .replace(/^\s*client_scripts?\b[^\n{]*$/gm, '');
  if (/\bclient_scripts?\b/.test(edited.replace(/--.*$/gm, ''))) {
    throw new Error('bench: fxmanifest.lua declares client scripts in a form the server-only variant cannot drop');
  }
  return edited;
}

export const START_MARK = 'bench-start-mark.js';
export const READY_MARK = 'bench-ready-mark.js';
export const READY_EVENT = 'bench:micro:ready';

/**
 * Two server scripts around the resource's own: the first notes the time, the last reports it once the resource's
 * onResourceStart handlers have run (they were added before its own). Between them: every server script of the
 * resource compiled and run, and its start handlers. Shared scripts (config.lua) run before both.
 */
export function startMarkManifest(manifest: string): string {
  return `server_script '${START_MARK}'\n${manifest}\nserver_script '${READY_MARK}'\n`;
}

export const startMarkScripts: Record<string, string> = {
  [START_MARK]: 'globalThis.benchStart = { ns: process.hrtime.bigint(), cpu: process.cpuUsage() };\n',
  [READY_MARK]: [
    "on('onResourceStart', (name) => {",
    '  if (name !== GetCurrentResourceName()) return;',
    '  const cpu = process.cpuUsage(globalThis.benchStart.cpu);',
    '  const wallUs = Number(process.hrtime.bigint() - globalThis.benchStart.ns) / 1000;',
    `  TriggerEvent('${READY_EVENT}', wallUs, cpu.user + cpu.system);`,
    '});',
    '',
  ].join('\n'),
};
