export type RouteMatch = false | { matches: true; params: Record<string, string> };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A bad percent-escape (`%E0%A4`) stays as sent: the route then refuses the value instead of the matcher throwing. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A matcher of request URLs for a route template such as `/api/leo/user/:chatId/departments` (a trailing `/*`
 * matches the prefix itself and anything below it) on `origin` (`*` for any origin, or a base URL).
 * msw's own path matcher throws a URIError on a malformed percent-escape in a parameter, which would turn
 * `GET /api/leo/user/%E0%A4/departments` into a 500 rather than the 404 every malformed chat id gets.
 */
export function routeMatcher(origin: string, template: string): (url: URL) => RouteMatch {
  const base = origin === '*' ? undefined : new URL(origin);
  const basePath = base?.pathname.replace(/\/+$/, '') ?? '';
  const anyRest = template.endsWith('/*');
  const names: string[] = [];
  const fixed = (anyRest ? template.slice(0, -2) : template)
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return escapeRegExp(segment);
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const pattern = new RegExp(`^${escapeRegExp(basePath)}${fixed}${anyRest ? '(?:/.*)?' : '/?'}$`);

  return (url) => {
    if (base && url.origin !== base.origin) return false;
    const match = pattern.exec(url.pathname);
    if (!match) return false;
    const params = Object.fromEntries(names.map((name, index) => [name, decodeSegment(match[index + 1] ?? '')]));
    return { matches: true, params };
  };
}

/** routeMatcher as an msw request predicate. */
export function routePredicate(origin: string, template: string): (args: { request: Request }) => RouteMatch {
  const match = routeMatcher(origin, template);
  return ({ request }) => match(new URL(request.url));
}
