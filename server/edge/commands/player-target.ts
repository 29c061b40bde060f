/** A player id typed in the console: a positive whole number of a connected player, or undefined. */
export function parsePlayerId(text: string | undefined, isConnected: (src: number) => boolean): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const src = Number(text);
  return src > 0 && isConnected(src) ? src : undefined;
}
