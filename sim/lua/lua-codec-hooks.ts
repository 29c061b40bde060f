/** What the codec needs from the runtime that owns the lua_State. */
export interface LuaCodecHooks {
  /** A new reference (in this runtime) to the function at `idx`. */
  makeRef(L: number, idx: number): string;
  /** Pushes the table FXServer gives Lua for a function reference (and takes a reference count on it). */
  pushFuncRef(L: number, ref: string): void;
  /** Pushes a vector (2–4 components; 5 means quat) built from `components`. */
  pushVector(L: number, components: number[], kind: number): void;
  /** The vector kind (2, 3, 4, or 5 for quat) of the table at `idx`, or 0 when it is not a vector. */
  vectorKind(L: number, idx: number): number;
}
