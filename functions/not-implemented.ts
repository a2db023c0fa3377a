/**
 * The one handler behind every route whose capability has not landed yet: the route authenticates,
 * is rate limited and reads its body like any other, then answers 501 naming the capability.
 * It never pretends to compute anything.
 */
import { NotImplementedYet } from '../shared/errors';
import { apiHandler, byRoute, publicHandler } from '../shared/http/api-handler';
import { ROUTES } from '../shared/routes';

export const handler = byRoute(
  Object.fromEntries(
    ROUTES.filter((r) => r.handler === 'not-implemented').map((route) => [
      route.id,
      (route.auth === 'key' ? apiHandler : publicHandler)(route.id, {}, async () => {
        throw new NotImplementedYet(`${route.method} ${route.path} is not available yet (capability: ${route.plannedIn})`);
      }),
    ]),
  ),
);
