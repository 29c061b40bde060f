import type { DutyChange } from '../../../../server/integrations/integration.js';
import type { DutyEndReason } from '../../../../shared/events.js';

/** LSPD (id 1) and BCSO (id 2) of the mock panel's demo data, with their rank ids. */
export const LSPD = { id: 1, slug: 'lspd', officer: 1, sergeant: 2, lieutenant: 3 } as const;
export const BCSO = { id: 2, slug: 'bcso', deputy: 4, sergeant: 5 } as const;

export const onDuty = (src: number, department: { id: number; slug: string }, rankId: number): DutyChange => ({
  src,
  onDuty: true,
  departmentId: department.id,
  departmentSlug: department.slug,
  rankId,
});

export const offDuty = (src: number, reason: DutyEndReason = 'request', departmentId = 1): DutyChange => ({
  src,
  onDuty: false,
  departmentId,
  departmentSlug: null,
  rankId: null,
  reason,
});
