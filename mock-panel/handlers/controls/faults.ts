import { http } from 'msw';
import type { z } from 'zod';
import type { PanelControls } from '../../controls/panel-controls';
import {
  ErrorsBodySchema,
  FaultKindSchema,
  FaultsResponseSchema,
  LatencyBodySchema,
  MalformedBodySchema,
  OutageBodySchema,
} from '../../controls/schemas';
import { respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, controlError, controlRoute, readControlBody } from './control-route';

/**
 * GET    /__mock/faults                     the faults in effect
 * PUT    /__mock/faults/latency             `{ ms }`
 * PUT    /__mock/faults/errors              `{ error, rate?, seed? }`
 * PUT    /__mock/faults/outage              `{ mode: 'reset' | 'hang' | 'proxy_404', rate?, seed? }`
 * PUT    /__mock/faults/malformed           `{ mode: 'invalid_json' | 'wrong_shape' | 'html', rate?, seed? }`
 * DELETE /__mock/faults[/:kind]             clear all faults, or one kind
 * Every answer is the faults now in effect and how many requests a hang outage holds.
 */
export function faultHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  const base = `${CONTROL_PREFIX}/faults`;
  const on = (path: string) => routePredicate(origin, path);
  const current = () =>
    respond(FaultsResponseSchema, { ok: true, faults: controls.faults(), hanging: controls.hangingRequests() });
  const setter = <Schema extends z.ZodType>(schema: Schema, apply: (value: z.output<Schema>) => void) =>
    controlRoute(context, async ({ request }) => {
      const body = await readControlBody(request, schema);
      if (!body.ok) return body.response;
      apply(body.value);
      return current();
    });

  return [
    http.get(
      on(base),
      controlRoute(context, async () => current()),
    ),
    http.put(
      on(`${base}/latency`),
      setter(LatencyBodySchema, (value) => controls.setLatency(value.ms)),
    ),
    http.put(
      on(`${base}/errors`),
      setter(ErrorsBodySchema, (value) => controls.injectErrors(value)),
    ),
    http.put(
      on(`${base}/outage`),
      setter(OutageBodySchema, (value) => controls.setOutage(value)),
    ),
    http.put(
      on(`${base}/malformed`),
      setter(MalformedBodySchema, (value) => controls.setMalformed(value)),
    ),
    http.delete(
      on(base),
      controlRoute(context, async () => {
        controls.clearFaults();
        return current();
      }),
    ),
    http.delete(
      on(`${base}/:kind`),
      controlRoute(context, async ({ params }) => {
        const kind = FaultKindSchema.safeParse(params.kind);
        if (!kind.success) return controlError(`kind: one of ${FaultKindSchema.options.join(', ')}`, 'kind');
        controls.clearFaults(kind.data);
        return current();
      }),
    ),
  ];
}
