// Splits a console line (server.cfg, ExecuteCommand, typed commands) into tokens: whitespace separates,
// double quotes group (`\"` inside them is a quote, as txAdmin writes JSON to the console), and `#` or `//` outside
// quotes starts a comment (citizenfx/fivem code/client/citicore/console/Console.cpp, Tokenize and IsEscapeChar).
export function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '\\' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (c === '"') quoted = false;
      else current += c;
      continue;
    }
    if (c === '"') {
      quoted = true;
      inToken = true;
      continue;
    }
    if (c === '#' || (c === '/' && line[i + 1] === '/')) break;
    if (c === ' ' || c === '\t') {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
      continue;
    }
    current += c;
    inToken = true;
  }
  if (inToken) tokens.push(current);
  return tokens;
}

/**
 * Splits a cfg text into the lines that say something: blank and comment-only lines go (`;` does not separate
 * commands in cfg files read by the simulator).
 */
export function cfgLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => tokenize(l).length > 0);
}
