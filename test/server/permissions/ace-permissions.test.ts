// Config.AcePermissions in the bridge: the principals follow every duty change, whatever caused it, and are there
// before the bridge's own events tell other resources about it.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { ON_DUTY_COUNT_KEY, PUBLIC_EVENTS } from '../../../shared/events.js';
import { MAY_CHANGE_PRINCIPALS } from '../../e2e/support/supervisors.js';
import { connect, PANEL_URL, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const ALEX_ACCOUNT = `bridge.account.chat:${TWO_DEPARTMENTS}`;
const acePermissions = { value: { AcePermissions: true } };

async function alexAndJamie(options: Parameters<typeof startBridge>[1] = {}) {
  const running = await startBridge(mock.panel, { config: acePermissions, aces: MAY_CHANGE_PRINCIPALS, ...options });
  await connect(running, 7, ALEX);
  await connect(running, 8, JAMIE);
  return running;
}

describe('ACE principals while on duty', () => {
  it('follow on, rank, switch and off, and a listener of the events already finds them', async () => {
    const running = await alexAndJamie();
    const seen: string[][] = [];
    const emitLocal = running.port.emitLocal.bind(running.port);
    running.port.emitLocal = (event, ...args) => {
      if (event.startsWith('bridge:server:')) seen.push([event, ...running.port.principalsOf(7)]);
      emitLocal(event, ...args);
    };

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(running.port.principalsOf(7)).toEqual([ALEX_ACCOUNT, 'bridge.lspd', 'bridge.lspd.2', 'bridge.onduty']);

    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant, ROLES.bcsoMember]);
    running.port.requestRefresh(7);
    await settle();
    expect(running.port.principalsOf(7)).toEqual([ALEX_ACCOUNT, 'bridge.lspd', 'bridge.lspd.3', 'bridge.onduty']);

    running.port.requestDuty(7, 2, true, BCSO.id);
    await settle();
    expect(running.port.principalsOf(7)).toEqual([ALEX_ACCOUNT, 'bridge.bcso', 'bridge.bcso.4', 'bridge.onduty']);

    running.port.requestDuty(7, 3, false, null);
    await settle();
    expect(running.port.principalsOf(7)).toEqual([]);
    expect(running.port.principalsOf(8)).toEqual([]);

    const lspd = [ALEX_ACCOUNT, 'bridge.lspd', 'bridge.lspd.2', 'bridge.onduty'];
    expect(seen).toEqual([
      [PUBLIC_EVENTS.playerOnDuty, ...lspd],
      [PUBLIC_EVENTS.playerRankChanged, ALEX_ACCOUNT, 'bridge.lspd', 'bridge.lspd.3', 'bridge.onduty'],
      [PUBLIC_EVENTS.playerOffDuty],
      [PUBLIC_EVENTS.playerOnDuty, ALEX_ACCOUNT, 'bridge.bcso', 'bridge.bcso.4', 'bridge.onduty'],
      [PUBLIC_EVENTS.playerOffDuty],
    ]);
    expect(running.port.aces.principalLines()).toEqual([]);
  });

  it('follow a department the panel renames, and never lend its old slug to another department later given it', async () => {
    const running = await alexAndJamie();
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    const seen: unknown[][] = [];
    const emitLocal = running.port.emitLocal.bind(running.port);
    running.port.emitLocal = (event, ...args) => {
      if (event.startsWith('bridge:server:')) seen.push([event, ...args, ...running.port.principalsOf(7)]);
      emitLocal(event, ...args);
    };

    mock.panel.controls.renameDepartment(LSPD.id, { slug: 'lapd' });
    running.port.requestRefresh(7);
    await settle();
    const inLapd = [ALEX_ACCOUNT, 'bridge.lapd', 'bridge.lapd.2', 'bridge.onduty'];
    expect(running.port.principalsOf(7)).toEqual(inLapd);
    expect(seen).toEqual([[PUBLIC_EVENTS.playerDepartmentRenamed, 7, LSPD.id, 'lapd', 'lspd', ...inLapd]]);

    // BCSO takes the old slug: Alex, on duty in department 1, holds nothing of it, even after another refresh.
    mock.panel.controls.renameDepartment(BCSO.id, { slug: 'lspd' });
    await elapse(60_000);
    running.port.requestRefresh(7);
    await settle();
    const [profile] = running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1) as [{ departments: { slug: string }[] }];
    expect(profile.departments.map((department) => department.slug)).toEqual(['lapd', 'lspd']);
    expect(running.port.principalsOf(7)).toEqual(inLapd);
    expect(running.bridge.duty.state(7)).toMatchObject({ departmentId: LSPD.id, departmentSlug: 'lapd' });
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual(['POST /api/leo/duty/on']);
  });

  it('go when the player drops, and when the bridge stops', async () => {
    const running = await alexAndJamie();
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, 3);
    await settle();
    expect(running.port.principalsOf(8)).toContain('bridge.safr');
    running.port.drop(8);
    await settle();
    expect(running.port.aces.principalLines().some((line) => line.includes('1039284756102938475'))).toBe(false);

    running.bridge.stop();
    expect(running.port.aces.principalLines()).toEqual([]);
    expect(running.port.store.keys('ace-principals:')).toEqual([]);
  });

  it('hold nothing for players who left', async () => {
    const running = await alexAndJamie();
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, 3);
    await settle();
    expect(running.bridge.footprint().acePrincipals).toBe(2);
    running.port.drop(7);
    running.port.drop(8);
    await settle();
    expect(running.bridge.footprint().acePrincipals).toBe(0);
    expect(running.port.aces.principalLines()).toEqual([]);
  });

  it('are never given with Config.AcePermissions off, the default', async () => {
    const running = await alexAndJamie({ config: { value: {} } });
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    expect(running.port.executed).toEqual([]);
    expect(running.port.principalsOf(7)).toEqual([]);
  });

  it('say once in the console what server.cfg lacks when the bridge may not run add_principal', async () => {
    const running = await alexAndJamie({ aces: [] });
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, 3);
    await settle();
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    expect(running.port.linesWith('add_principal')).toEqual([
      'ERROR: the bridge may not run add_principal and remove_principal: add `add_ace resource.bridge command.add_principal allow` and `add_ace resource.bridge command.remove_principal allow` to server.cfg (players on duty get no ACE principals until then)',
    ]);
  });

  it('give a department whose slug cannot name a principal bridge.onduty only, and say why once', async () => {
    // The contract asks only for a non-empty slug; this panel's says more than a principal name may.
    mock.use(
      http.get(`${PANEL_URL}/api/leo/user/${TWO_DEPARTMENTS}/departments`, () =>
        HttpResponse.json({
          ok: true,
          departments: [{ id: LSPD.id, slug: 'lspd swat', name: 'LSPD', rank: { id: 2, name: 'Sergeant' } }],
        }),
      ),
    );
    const running = await startBridge(mock.panel, { config: acePermissions, aces: MAY_CHANGE_PRINCIPALS });
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    running.port.requestDuty(7, 2, false, null);
    running.port.requestDuty(7, 3, true, LSPD.id);
    await settle();
    expect(running.port.principalsOf(7)).toEqual([ALEX_ACCOUNT, 'bridge.onduty']);
    expect(running.port.linesWith('cannot name an ACE principal')).toEqual([
      'WARN: the department slug "lspd swat" cannot name an ACE principal (letters, digits, _ and - only): its players on duty get bridge.onduty alone',
    ]);
  });
});

describe('the on-duty counts', () => {
  it('are in GlobalState from the start and after each change, and the export agrees', async () => {
    const running = await alexAndJamie();
    const counts = () => running.port.globalState.get(ON_DUTY_COUNT_KEY);
    const exported = running.port.exported.get('GetOnDutyCount') as (slug?: unknown) => number;
    expect(counts()).toEqual({ total: 0 });
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, 3);
    await settle();
    expect(counts()).toEqual({ lspd: 1, safr: 1, total: 2 });
    expect([exported(), exported('lspd'), exported('safr'), exported('bcso')]).toEqual([2, 1, 1, 0]);
    running.port.drop(8);
    await settle();
    expect(counts()).toEqual({ lspd: 1, total: 1 });
    running.bridge.stop();
    expect(counts()).toEqual({ total: 0 });
  });

  it('are set by a bridge without its convars too: nobody is on duty there', async () => {
    const { FakeServerPort } = await import('../../../bench/support/fake-server-port.js');
    const { startBridgeServer } = await import('../../../server/edge/bridge-server.js');
    const { createVirtualRuntime } = await import('../support/virtual-runtime.js');
    const port = new FakeServerPort();
    const bridge = startBridgeServer(port, createVirtualRuntime());
    expect(port.globalState.get(ON_DUTY_COUNT_KEY)).toEqual({ total: 0 });
    expect((port.exported.get('GetOnDutyCount') as () => number)()).toBe(0);
    bridge.stop();
  });
});
