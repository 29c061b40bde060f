import { currentView, type HudView, offDutyView, onDutyView, profileView } from './hud-view';

let view: HudView | undefined;
let departments = 0;

function show(next: HudView) {
  view = next;
  SendNUIMessage({ type: 'duty', view: next });
}

// The bridge sends these to this player; types/client.d.ts gives each listener its payload type.
onNet('bridge:client:profile', (profile) => {
  departments = profile.ok ? profile.departments.length : 0;
  // A refreshed profile does not end a duty: when it does, bridge:client:offDuty follows.
  if (!profile.ok || view?.state !== 'on') show(profileView(profile));
});

onNet('bridge:client:deptData', (department) => show(onDutyView(department)));

onNet('bridge:client:offDuty', () => show(offDutyView(departments)));

// Restarted while the bridge runs: its events for this session are past, so ask it for the state instead.
if (GetResourceState('bridge') === 'started') {
  const options = exports.bridge.GetDutyOptions();
  const restored = currentView(options);
  if (restored) {
    departments = options.departments.length;
    show(restored);
  }
}
