import { readFile } from 'node:fs/promises';
import { HttpResponse, http } from 'msw';
import { routePredicate } from './route-predicate';

const PUBLIC_DIR = new URL('../dashboard/public/', import.meta.url);

const PAGES = [
  { path: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/dashboard.js', file: 'dashboard.js', type: 'text/javascript; charset=utf-8' },
  { path: '/dashboard.css', file: 'dashboard.css', type: 'text/css; charset=utf-8' },
] as const;

// The page holds no secret (the tester types the token into it), so it is served without one. The policy keeps it
// to its own origin: no inline script, nothing loaded from elsewhere, not framed by another site.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The dashboard page at `/` and its two assets, read from disk on each request so an edit shows on reload. */
export function dashboardPageHandlers(origin: string) {
  return PAGES.map(({ path, file, type }) =>
    http.get(
      routePredicate(origin, path),
      async () =>
        new HttpResponse(await readFile(new URL(file, PUBLIC_DIR)), {
          headers: { 'content-type': type, ...SECURITY_HEADERS },
        }),
    ),
  );
}
