import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiJson } from '../../../shared/contract/openapi';

const COMMITTED = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

describe('the OpenAPI document', () => {
  it('docs/openapi.json is what the zod contract generates', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    const generated = renderOpenApiJson();
    if (committed !== generated) {
      expect.fail('docs/openapi.json is out of date with shared/contract: run `npm run openapi` and commit the result');
    }
  });

  it('documents every status of both endpoints, the bearer scheme and the rate-limit headers', () => {
    const document = buildOpenApiDocument();
    const statuses = (path: string, method: 'get' | 'post') =>
      Object.keys(document.paths?.[path]?.[method]?.responses ?? {}).sort();
    expect(document.openapi).toBe('3.1.0');
    expect(statuses('/api/leo/user/{chatId}/departments', 'get')).toEqual(['200', '401', '404', '429', '500', '503']);
    for (const action of ['on', 'off']) {
      expect(statuses(`/api/leo/duty/${action}`, 'post')).toEqual(
        ['200', '400', '401', '404', '413', '415', '429', '500', '503'].sort(),
      );
    }
    expect(document.components?.securitySchemes?.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const unauthorized = document.paths?.['/api/leo/user/{chatId}/departments']?.get?.responses?.['401'];
    expect(Object.keys((unauthorized as { headers: object }).headers)).toContain('WWW-Authenticate');
    const tooMany = document.paths?.['/api/leo/duty/on']?.post?.responses?.['429'];
    expect(Object.keys((tooMany as { headers: object }).headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Policy', 'RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
  });
});
