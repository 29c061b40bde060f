// The principals the bridge gives chat accounts on duty, against FXServer's ACE semantics (the simulator's store, in
// the fake port): what is added and removed, what an owner granted by hand, the missing ACEs, the kept records.
import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { FakeServerPort } from '../../../bench/support/fake-server-port.js';
import { createAceConsole, dutyPrincipals, PrincipalGrants } from '../../../server/edge/ace-principals.js';
import { createLogger } from '../../../server/kernel/log.js';
import { createMemoryStore, type KeyValueStore } from '../../../server/kernel/storage.js';
import { MAY_CHANGE_PRINCIPALS, SPIKESTRIP_FOR_LSPD } from '../../e2e/support/supervisors.js';

const RULES = [SPIKESTRIP_FOR_LSPD, 'add_ace bridge.lspd.3 command.impound allow'];
const ALEX_ID = `identifier.chat:${TWO_DEPARTMENTS}`;
const ALEX_ACCOUNT = `bridge.account.chat:${TWO_DEPARTMENTS}`;

function setUp(aces: string[] = [...MAY_CHANGE_PRINCIPALS, ...RULES], store: KeyValueStore = createMemoryStore()) {
  const port = new FakeServerPort({ aces, connected: { 7: ALEX, 8: JAMIE }, store });
  const lines: string[] = [];
  const grants = new PrincipalGrants(
    createAceConsole(port),
    store,
    createLogger({ print: (line) => lines.push(line) }),
  );
  return { port, grants, lines, store };
}

describe('the principals of a duty', () => {
  it('are bridge.onduty, bridge.<slug> and bridge.<slug>.<rankId>; a slug that cannot name one gives onduty only', () => {
    expect(dutyPrincipals('lspd', 2)).toEqual(['bridge.onduty', 'bridge.lspd', 'bridge.lspd.2']);
    for (const slug of ['lspd swat', 'lspd.3', 'x;quit', 'sheriff"', '']) {
      expect(dutyPrincipals(slug, 2), slug).toEqual(['bridge.onduty']);
    }
  });
});

describe('granting and taking back principals', () => {
  it("puts the account's identifier in them through the bridge's own principal, and takes them all back", () => {
    const { port, grants } = setUp();
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    expect(port.principalsOf(7)).toEqual([ALEX_ACCOUNT, 'bridge.lspd', 'bridge.lspd.2', 'bridge.onduty']);
    expect(port.isPlayerAceAllowed(7, 'command.spikestrip')).toBe(true);
    expect(port.isPlayerAceAllowed(7, 'command.impound')).toBe(false);
    expect(port.principalsOf(8)).toEqual([]);

    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(port.principalsOf(7)).toEqual([]);
    expect(port.isPlayerAceAllowed(7, 'command.spikestrip')).toBe(false);
    expect(port.aces.principalLines()).toEqual([]);
    expect(grants.size).toBe(0);
  });

  it('adds the new rank and removes the old one, never leaving the player without the department', () => {
    const { port, grants } = setUp();
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    port.executed.splice(0);
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 3));
    expect(port.executed).toEqual([
      `add_principal ${ALEX_ACCOUNT} bridge.lspd.3`,
      `remove_principal ${ALEX_ACCOUNT} bridge.lspd.2`,
    ]);
    expect(port.isPlayerAceAllowed(7, 'command.impound')).toBe(true);
  });

  it('adds the principals before the link, and removes the link first: a player never holds half a duty', () => {
    const { port, grants } = setUp();
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(port.executed).toEqual([
      `add_principal ${ALEX_ACCOUNT} bridge.onduty`,
      `add_principal ${ALEX_ACCOUNT} bridge.lspd`,
      `add_principal ${ALEX_ACCOUNT} bridge.lspd.2`,
      `add_principal ${ALEX_ID} ${ALEX_ACCOUNT}`,
      `remove_principal ${ALEX_ID} ${ALEX_ACCOUNT}`,
      `remove_principal ${ALEX_ACCOUNT} bridge.onduty`,
      `remove_principal ${ALEX_ACCOUNT} bridge.lspd`,
      `remove_principal ${ALEX_ACCOUNT} bridge.lspd.2`,
    ]);
  });

  it('never removes what an owner granted by hand, even the very principals of the duty', () => {
    const { port, grants } = setUp([
      ...MAY_CHANGE_PRINCIPALS,
      ...RULES,
      `add_principal ${ALEX_ID} bridge.lspd`,
      `add_principal ${ALEX_ID} bridge.onduty`,
    ]);
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(port.aces.principalLines()).toEqual([`${ALEX_ID} <- bridge.lspd`, `${ALEX_ID} <- bridge.onduty`]);
    expect(port.isPlayerAceAllowed(7, 'command.spikestrip')).toBe(true);
  });

  it("keeps the account's principals when a session that no longer holds them goes off duty", () => {
    const { port, grants } = setUp();
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    grants.grant(TWO_DEPARTMENTS, 9, dutyPrincipals('lspd', 2));
    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(port.principalsOf(7)).toContain('bridge.lspd');
    grants.revoke(TWO_DEPARTMENTS, 9);
    expect(port.principalsOf(7)).toEqual([]);
  });

  it('keeps a record in KVP before the first add_principal and deletes it after the last remove_principal', () => {
    const store = createMemoryStore();
    const writes: string[] = [];
    const { grants } = setUp(undefined, {
      ...store,
      set: (key, value) => {
        writes.push(`set ${key} ${value}`);
        store.set(key, value);
      },
      delete: (key) => {
        writes.push(`delete ${key}`);
        store.delete(key);
      },
    });
    grants.grant(TWO_DEPARTMENTS, 7, ['bridge.onduty']);
    expect(store.entries).toEqual(
      new Map([
        [
          `ace-principals:${TWO_DEPARTMENTS}`,
          JSON.stringify({ chatId: TWO_DEPARTMENTS, principals: ['bridge.onduty'] }),
        ],
      ]),
    );
    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(store.entries.size).toBe(0);
    expect(writes[0]).toMatch(/^set ace-principals:/);
    expect(writes.at(-1)).toBe(`delete ace-principals:${TWO_DEPARTMENTS}`);
  });
});

describe('without the ACEs to run add_principal and remove_principal', () => {
  it('grants nothing and names the server.cfg lines in one ERROR, however many go on duty', () => {
    const { port, grants, lines, store } = setUp(RULES);
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    grants.grant(ONE_DEPARTMENT, 8, dutyPrincipals('safr', 7));
    expect(port.executed).toEqual([]);
    expect(port.principalsOf(7)).toEqual([]);
    expect(store.keys('')).toEqual([]);
    expect(lines).toEqual([
      'ERROR: the bridge may not run add_principal and remove_principal: add `add_ace resource.bridge command.add_principal allow` and `add_ace resource.bridge command.remove_principal allow` to server.cfg (players on duty get no ACE principals until then)',
    ]);
  });

  it('gives them to accounts still on duty at the next change once the ACEs are there; never to one gone off duty', () => {
    const { port, grants } = setUp(RULES);
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    grants.grant(ONE_DEPARTMENT, 8, dutyPrincipals('safr', 7));
    expect(grants.size).toBe(2);
    grants.revoke(ONE_DEPARTMENT, 8);
    expect(grants.size).toBe(1);

    for (const line of MAY_CHANGE_PRINCIPALS) port.cfg(line);
    expect(port.principalsOf(7)).toEqual([]);
    grants.revoke(ONE_DEPARTMENT, 8);
    expect(port.principalsOf(7)).toEqual([ALEX_ACCOUNT, 'bridge.lspd', 'bridge.lspd.2', 'bridge.onduty']);
    expect(port.principalsOf(8)).toEqual([]);
    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(port.aces.principalLines()).toEqual([]);
    expect(grants.size).toBe(0);
  });

  it('does not grant with add_principal alone: it could not take them back', () => {
    const { port, grants, lines } = setUp([MAY_CHANGE_PRINCIPALS[0] as string]);
    grants.grant(TWO_DEPARTMENTS, 7, ['bridge.onduty']);
    expect(port.principalsOf(7)).toEqual([]);
    expect(lines[0]).toContain('add `add_ace resource.bridge command.remove_principal allow` to server.cfg');
  });

  it('takes them back as soon as the ACE is there again, and keeps the record meanwhile', () => {
    const { port, grants, lines, store } = setUp();
    grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    port.aces.removeAce('resource.bridge', 'command.remove_principal', 'allow');
    grants.revoke(TWO_DEPARTMENTS, 7);
    expect(port.isPlayerAceAllowed(7, 'command.spikestrip')).toBe(true);
    expect(store.keys('ace-principals:')).toEqual([`ace-principals:${TWO_DEPARTMENTS}`]);
    expect(lines).toEqual([
      'ERROR: the bridge may not run remove_principal: add `add_ace resource.bridge command.remove_principal allow` to server.cfg (the ACE principals of player 7 stay until then)',
    ]);

    port.cfg('add_ace resource.bridge command.remove_principal allow');
    grants.grant(ONE_DEPARTMENT, 8, dutyPrincipals('safr', 7));
    expect(port.principalsOf(7)).toEqual([]);
    expect(port.principalsOf(8)).toContain('bridge.safr');
    expect(store.keys('ace-principals:')).toEqual([`ace-principals:${ONE_DEPARTMENT}`]);
  });
});

describe('at start', () => {
  it('takes back what the last run left, with one INFO line, and only the bridge’s own pairs', () => {
    const store = createMemoryStore();
    const before = setUp(undefined, store);
    before.grants.grant(TWO_DEPARTMENTS, 7, dutyPrincipals('lspd', 2));
    // The resource died without its stop: FXServer still has the principals, KVP the record.
    const after = setUp(undefined, store);
    for (const line of before.port.aces.principalLines()) {
      const [child, parent] = line.split(' <- ');
      after.port.aces.addPrincipal(child as string, parent as string);
    }
    after.port.aces.addPrincipal(ALEX_ID, 'bridge.lspd');

    expect(after.grants.endLeftOver()).toBe(1);
    expect(after.port.aces.principalLines()).toEqual([`${ALEX_ID} <- bridge.lspd`]);
    expect(store.entries.size).toBe(0);
    expect(after.lines).toEqual([
      'INFO: the last run left the ACE principals of 1 chat account(s) in place (a crash?); they are removed now',
    ]);
    expect(after.grants.endLeftOver()).toBe(0);
  });

  it('sets aside a record it cannot read, or one naming a principal that is not the bridge’s, and removes nothing', () => {
    const store = createMemoryStore();
    store.set(`ace-principals:${TWO_DEPARTMENTS}`, '{"chatId":');
    store.set(
      `ace-principals:${ONE_DEPARTMENT}`,
      JSON.stringify({ chatId: ONE_DEPARTMENT, principals: ['bridge.onduty', 'group.admin'] }),
    );
    const { grants, lines, port } = setUp(undefined, store);
    expect(grants.endLeftOver()).toBe(0);
    expect(port.executed).toEqual([]);
    expect(store.keys('ace-principals:')).toEqual([]);
    expect(store.keys('ace-principals-set-aside:').sort()).toEqual([
      `ace-principals-set-aside:${ONE_DEPARTMENT}`,
      `ace-principals-set-aside:${TWO_DEPARTMENTS}`,
    ]);
    expect(lines).toEqual([
      `ERROR: the ACE principal record ace-principals:${ONE_DEPARTMENT} could not be read (principals.1: Invalid string: must match pattern /^bridge\\.(onduty|[A-Za-z0-9_-]+(\\.\\d+)?)$/); it is set aside as ace-principals-set-aside:${ONE_DEPARTMENT}`,
      `ERROR: the ACE principal record ace-principals:${TWO_DEPARTMENTS} could not be read (not JSON); it is set aside as ace-principals-set-aside:${TWO_DEPARTMENTS}`,
    ]);
  });
});

describe('the console lines', () => {
  it('refuse a name that would change the line', () => {
    const port = new FakeServerPort({ aces: MAY_CHANGE_PRINCIPALS });
    const aces = createAceConsole(port);
    expect(() => aces.addPrincipal('identifier.chat:1', 'bridge.lspd; quit')).toThrow(/cannot be a principal name/);
    expect(() => aces.removePrincipal('a"b', 'bridge.lspd')).toThrow(/cannot be a principal name/);
    expect(port.executed).toEqual([]);
  });
});
