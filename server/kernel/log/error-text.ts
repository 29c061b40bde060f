/**
 * The text of anything thrown or rejected: an Error's message, anything else as text (a rejected export call carries
 * a string, not an Error). An Error is told by its brand, not by `instanceof`: the optional modules
 * (server/kernel/optional-modules/) read errors thrown on dist/server.js's side, which may be of another realm.
 */
export const errorText = (error: unknown): string =>
  Object.prototype.toString.call(error) === '[object Error]' ? (error as Error).message : String(error);
