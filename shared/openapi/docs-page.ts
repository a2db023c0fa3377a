/**
 * The API reference page: Swagger UI from the `swagger-ui-dist` package, served by the service itself so
 * the page loads nothing from a CDN. The page and its two assets share the one route GET /docs; an asset is
 * named in the query (`/docs?asset=swagger-ui.css`), and every reference is relative, so the page works
 * under an API Gateway stage (`/v1/docs`) as well as locally.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import swaggerUiDirectory from 'swagger-ui-dist/absolute-path.js';
import { NotFound } from '../errors';
import type { ApiResult } from '../http/responses';
import { DOCS_ASSETS, type DocsAsset } from '../schemas/docs';

/** A 200 that is not JSON. */
export interface StaticFile {
  content_type: string;
  body: string;
}

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io for its badge.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Energy Ops API reference</title>
  <link rel="stylesheet" href="docs?asset=swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs?asset=swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
  </script>
</body>
</html>
`;

const cache = new Map<DocsAsset, string>();

/** The page, or one of its assets; any other name is a 404. */
export async function docsFile(asset: string | undefined): Promise<StaticFile> {
  if (asset === undefined) return { content_type: 'text/html; charset=utf-8', body: PAGE };
  if (!Object.hasOwn(DOCS_ASSETS, asset)) throw new NotFound('Asset not found');
  const name = asset as DocsAsset;
  let body = cache.get(name);
  if (body === undefined) {
    // The source map is not served: drop the comment so browsers do not ask for it.
    body = (await readFile(path.join(swaggerUiDirectory(), name), 'utf8')).replace(/\n\/[/*]# sourceMappingURL=\S+\s*(\*\/)?\s*$/, '\n');
    cache.set(name, body);
  }
  return { content_type: DOCS_ASSETS[name], body };
}

/**
 * Route handlers serialise what they return as JSON; this middleware, used after the route's own, turns a
 * returned StaticFile back into a plain body with its content type. Middy runs `after` hooks in reverse,
 * so the envelope still adds the request id and rate-limit headers afterwards.
 */
export function servesStaticFile(): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  return {
    after: async (request) => {
      const response = request.response;
      if (!response || response.statusCode !== 200 || typeof response.body !== 'string') return;
      const file = JSON.parse(response.body) as StaticFile;
      request.response = {
        statusCode: 200,
        headers: { ...response.headers, 'content-type': file.content_type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
        body: file.body,
      };
    },
  };
}
