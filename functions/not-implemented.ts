/**
 * The one handler behind every route whose capability has not landed yet: the route authenticates,
 * is rate limited and reads its body like any other, then answers 501 naming the capability.
 * It never pretends to compute anything.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { NotImplementedYet } from '../shared/errors';
import { apiHandler, publicHandler } from '../shared/http/api-handler';
import { ROUTES, routeKey } from '../shared/routes';

const handlers = new Map(
  ROUTES.filter((r) => r.handler === 'not-implemented').map((route) => [
    routeKey(route),
    (route.auth === 'key' ? apiHandler : publicHandler)(route.id, {}, async () => {
      throw new NotImplementedYet(`${route.method} ${route.path} is not available yet (capability: ${route.plannedIn})`);
    }),
  ]),
);

export const handler = async (event: APIGatewayProxyEventV2, context: Context) => {
  const target = handlers.get(event.routeKey);
  if (!target) throw new Error(`no planned route for ${event.routeKey}`);
  return target(event, context);
};
