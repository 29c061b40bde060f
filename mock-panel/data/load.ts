import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type MockPanelData, MockPanelDataSchema } from './schema';

export const DEFAULT_DATA_FILE = fileURLToPath(new URL('./default.json', import.meta.url));

export class MockPanelDataError extends Error {
  override name = 'MockPanelDataError';
}

/** Validates seed data; the error names the source and every failing path (`→ at users[2].chatId`). */
export function parseMockPanelData(value: unknown, source = 'mock panel data'): MockPanelData {
  const parsed = MockPanelDataSchema.safeParse(value);
  if (!parsed.success) throw new MockPanelDataError(`${source} is invalid:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function loadMockPanelData(file: string = DEFAULT_DATA_FILE): MockPanelData {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MockPanelDataError(`cannot read mock panel data ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MockPanelDataError(`mock panel data ${file} is not JSON: ${(error as Error).message}`);
  }
  return parseMockPanelData(json, `mock panel data ${file}`);
}
