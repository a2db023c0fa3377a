/** GET /docs query: the page, or one of the two files it loads (shared/openapi/docs-page.ts serves them). */
import * as z from 'zod';

/** The files the page loads; on Lambda they are copied beside the bundle (lib/bundling.ts, FILES_BY_READER). */
export const DOCS_ASSETS = { 'swagger-ui.css': 'text/css; charset=utf-8', 'swagger-ui-bundle.js': 'text/javascript; charset=utf-8' } as const;
export type DocsAsset = keyof typeof DOCS_ASSETS;

export const DocsQuery = z.object({
  asset: z.string().optional().meta({ description: `One of ${Object.keys(DOCS_ASSETS).join(', ')}; without it, the HTML page.` }),
});
