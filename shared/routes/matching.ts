/** Matching a request to a row's path and tier: no rows here, so a handler's bundle does not load the table. */
import { TIERS, type Tier } from '../domain/accounts/tiers';
import type { Route } from './route';

/** Whether a caller's tier reaches a row's minimum tier (TIERS runs from the lowest to the highest). */
export const meetsTier = (tier: Tier | undefined, minimum: Route['tier']): boolean => !minimum || (tier !== undefined && TIERS.indexOf(tier) >= TIERS.indexOf(minimum));

/** decodeURIComponent without the throw: a malformed escape (`%ZZ`, a cut UTF-8 sequence) is undefined. */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The path parameters of `path` under a row's pattern, or undefined when the path is another row's. A
 * segment that does not decode is kept raw and named in `malformed`: the caller answers 400, never throws.
 */
export function matchPath(pattern: string, path: string): { pathParameters: Record<string, string>; malformed?: string } | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const pathParameters: Record<string, string> = {};
  let malformed: string | undefined;
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    if (w.startsWith('{') && w.endsWith('}')) {
      if (!got[i]) return undefined;
      const name = w.slice(1, -1);
      const decoded = decodePathSegment(got[i]);
      if (decoded === undefined) malformed ??= name;
      pathParameters[name] = decoded ?? got[i];
    } else if (w !== got[i]) return undefined;
  }
  return malformed ? { pathParameters, malformed } : { pathParameters };
}

/** The 400 message of a path parameter whose percent-escapes do not decode. */
export const malformedPathMessage = (parameter: string): string => `Invalid path parameter: ${parameter} is not valid percent-encoding`;

/** API Gateway's route key ("POST /api/register"), also set by the local runtime on every event. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;
