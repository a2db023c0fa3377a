/**
 * Writes the OpenAPI 3.1 document (shared/openapi/document.ts) to a file, for clients and reviews that
 * want it without running the service. The version is SERVICE_VERSION, as GET /openapi.json says.
 *
 *   npm run openapi                  # -> openapi.json at the repository root
 *   npm run openapi -- --out api.json
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from '../shared/openapi/document';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'openapi.json' } } });
const out = path.resolve(values.out);
const document = buildOpenApiDocument();
await writeFile(out, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${out}: ${Object.keys(document.paths ?? {}).length} paths, OpenAPI ${document.openapi}`);
