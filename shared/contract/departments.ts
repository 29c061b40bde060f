import { z } from 'zod';
import { ChatIdSchema } from './chat-id';

/** A chatId that fails this answers 404 `malformed_chat_id`, the same status as an unknown user. */
export const DepartmentsParamsSchema = z.object({ chatId: ChatIdSchema });

const VehicleSchema = z
  .object({
    model: z.string().min(1).meta({ description: 'Spawn name of the vehicle model.', example: 'police3' }),
    label: z.string().min(1).meta({ description: 'Name shown to the player.', example: 'Police Interceptor' }),
  })
  .meta({ id: 'DepartmentVehicle' });

const ClothingPieceSchema = z.object({
  slot: z.int().min(0).meta({ description: 'GTA component id (clothing) or prop anchor id (props).' }),
  drawable: z.int().min(0),
  texture: z.int().min(0),
});

const UniformSchema = z
  .object({
    name: z.string().min(1).meta({ example: 'Class B' }),
    pedModel: z
      .enum(['mp_m_freemode_01', 'mp_f_freemode_01'])
      .optional()
      .meta({ description: 'Freemode ped the uniform is made for; absent when it fits both.' }),
    components: z.array(ClothingPieceSchema),
    props: z.array(ClothingPieceSchema),
  })
  .meta({ id: 'DepartmentUniform' });

const EquipmentSchema = z
  .object({
    item: z.string().min(1).meta({ description: 'Weapon or item name.', example: 'WEAPON_STUNGUN' }),
    label: z.string().min(1),
    count: z.int().min(1),
  })
  .meta({ id: 'DepartmentEquipment' });

/**
 * What the bridge hands to the client as `bridge:client:deptData`. A loose object: keys the panel adds later pass
 * through to in-game consumers instead of being dropped by the bridge.
 */
export const DepartmentDataSchema = z
  .looseObject({
    callsignPrefix: z.string().optional().meta({ example: 'LSPD' }),
    vehicles: z.array(VehicleSchema),
    uniforms: z.array(UniformSchema),
    equipment: z.array(EquipmentSchema),
  })
  .meta({ id: 'DepartmentData', description: 'Department data sent to the game client as `bridge:client:deptData`.' });

export const RankSchema = z
  .object({ id: z.int().min(1), name: z.string().min(1).meta({ example: 'Sergeant' }) })
  .meta({ id: 'Rank', description: "The player's rank within a department." });

export const DepartmentSchema = z
  .object({
    id: z.int().min(1).meta({ example: 1 }),
    slug: z.string().min(1).meta({ description: 'Job name when a job framework integration is on.', example: 'lspd' }),
    name: z.string().min(1).meta({ example: 'Los Santos Police Department' }),
    rank: RankSchema,
    data: DepartmentDataSchema,
  })
  .meta({ id: 'Department' });

export const PanelUserSchema = z.object({ chatId: ChatIdSchema, name: z.string() }).meta({ id: 'PanelUser' });

export const DepartmentsResponseSchema = z
  .object({ ok: z.literal(true), user: PanelUserSchema, departments: z.array(DepartmentSchema) })
  .meta({
    id: 'DepartmentsResponse',
    description: "The user's departments from their roles in the configured guild; empty when they have none.",
  });

export type DepartmentData = z.infer<typeof DepartmentDataSchema>;
export type Rank = z.infer<typeof RankSchema>;
export type Department = z.infer<typeof DepartmentSchema>;
export type PanelUser = z.infer<typeof PanelUserSchema>;
export type DepartmentsResponse = z.infer<typeof DepartmentsResponseSchema>;
