// The department shapes a game resource sees, as plain types: types/index.d.ts is built from them (through
// shared/public-types.ts) and must not need zod. departments.ts checks its schemas against them.

/** A player's rank within a department. */
export interface Rank {
  id: number;
  name: string;
}

export interface DepartmentVehicle {
  model: string;
  label: string;
}

/** A clothing component (slot = component id) or prop (slot = anchor id). */
export interface ClothingPiece {
  slot: number;
  drawable: number;
  texture: number;
}

export interface DepartmentUniform {
  name: string;
  /** The freemode ped the uniform is made for; absent when it fits both. */
  pedModel?: 'mp_m_freemode_01' | 'mp_f_freemode_01';
  components: ClothingPiece[];
  props: ClothingPiece[];
}

export interface DepartmentEquipment {
  item: string;
  label: string;
  count: number;
}

/** Department data as the mock panel sends it: `{ callsignPrefix?, vehicles, uniforms, equipment, ... }`. */
export interface MockDepartmentData {
  callsignPrefix?: string;
  vehicles: DepartmentVehicle[];
  uniforms: DepartmentUniform[];
  equipment: DepartmentEquipment[];
  [key: string]: unknown;
}

/**
 * A department's data exactly as the panel sent it (`{}` when it sent none). The spec does not define it and the
 * bridge does not check it: check what you read (the mock panel sends MockDepartmentData).
 */
export type DepartmentData = unknown;
