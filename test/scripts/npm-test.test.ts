import { describe, expect, it, vi } from 'vitest';
import { type Command, runChecksBeside } from '../../scripts/test.js';

// npm test runs typecheck, lint and deps beside vitest (scripts/test.ts). Here the commands are tiny Node programs, so
// each outcome is shown without a real type-check: whatever fails, npm test fails and says which.
const node = (name: string, code: string): Command => ({ name, command: process.execPath, args: ['-e', code] });
const passes = (name: string) => node(name, `console.log('${name} ok')`);
const fails = (name: string) => node(name, `console.error('${name}: an error at a.ts:1'); process.exit(2)`);

async function outcome(checks: Command[], main: Command) {
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
    printed.push(String(text));
    return true;
  });
  try {
    return { code: await runChecksBeside(checks, main), printed: printed.join('\n') };
  } finally {
    log.mockRestore();
    write.mockRestore();
  }
}

describe('npm test (scripts/test.ts)', () => {
  it('passes when the checks and vitest pass, and prints nothing of the checks after vitest', async () => {
    const { code, printed } = await outcome([passes('typecheck'), passes('lint')], passes('vitest'));
    expect(code).toBe(0);
    expect(printed).not.toContain('typecheck ok');
    expect(printed).not.toContain('failed');
  });

  it('fails when a check fails though vitest passes, and prints that check’s output whole, at the end', async () => {
    const { code, printed } = await outcome([passes('typecheck'), fails('lint')], passes('vitest'));
    expect(code).toBe(1);
    expect(printed).toContain('lint failed:\nlint: an error at a.ts:1');
    expect(printed).toMatch(/npm test failed: lint$/);
  });

  it('fails when vitest fails though every check passes', async () => {
    const { code, printed } = await outcome([passes('typecheck'), passes('lint')], fails('vitest'));
    expect(code).toBe(1);
    expect(printed).not.toContain('npm test failed');
  });

  it('fails when a check cannot even start', async () => {
    const missing: Command = { name: 'deps', command: '/nonexistent/depcruise', args: [] };
    const { code, printed } = await outcome([missing], passes('vitest'));
    expect(code).toBe(1);
    expect(printed).toContain('deps failed:');
  });
});
