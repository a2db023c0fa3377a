import { buildOpenApiDocument } from '../../shared/openapi/document';
import { ROUTE_DOCS } from '../../shared/openapi/route-docs';
import { ROUTES } from '../../shared/routes';
import { call, registerKey, useRuntime } from '../helpers/runtime';

type Operation = {
  operationId: string;
  description?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
};

const document = buildOpenApiDocument();
const operationOf = (method: string, path: string) => (document.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with the service version, the spec addresses and both key forms', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(process.env.SERVICE_VERSION ?? '0.1.0');
    const servers = (document.servers ?? []).map((s) => s.description ?? '');
    for (const address of ['{base_url}', '{api_url}', '{edge_base_url}']) expect(servers.some((d) => d.startsWith(address))).toBe(true);
    expect(document.components?.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  it('has an entry in the route docs for every route, and none for a route that does not exist', () => {
    expect(Object.keys(ROUTE_DOCS).sort()).toEqual(ROUTES.map((r) => r.id).sort());
  });

  it('documents every route with its method, operationId and key requirement', () => {
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      expect({ route: route.id, operationId: op?.operationId }).toEqual({ route: route.id, operationId: route.id });
      expect(op!.security).toEqual(route.auth === 'key' ? [{ apiKey: [] }, { bearer: [] }] : []);
    }
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item as Record<string, Operation>).map((op) => op.operationId));
    expect(ids).toHaveLength(ROUTES.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares each {name} of a path as a required path parameter, and no other', () => {
    for (const route of ROUTES) {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operationOf(route.method, route.path)!.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => [p.name, p.required])).toEqual(names.map((n) => [n, true]));
    }
  });

  it('uses the terminal error body on /terminal routes and the simple one elsewhere', () => {
    for (const route of ROUTES) {
      const schema = operationOf(route.method, route.path)!.responses['400'].content!['application/json'].schema;
      expect(schema).toEqual({ $ref: route.group === 'terminal' ? '#/components/schemas/TerminalError' : '#/components/schemas/SimpleError' });
    }
  });

  it('offers the structured TIER_LIMIT_EXCEEDED body on 429 where a route consumes a quota', () => {
    const forecast = operationOf('POST', '/forecast')!.responses['429'].content!['application/json'].schema;
    expect(JSON.stringify(forecast)).toContain('#/components/schemas/StructuredError');
    const usage = operationOf('GET', '/api/usage')!.responses['429'].content!['application/json'].schema;
    expect(usage).toEqual({ $ref: '#/components/schemas/SimpleError' });
  });

  it('describes query parameters from the query schemas', () => {
    const params = operationOf('GET', '/forecast')!.parameters!.filter((p) => p.in === 'query');
    expect(params.map((p) => [p.name, Boolean(p.required)])).toEqual([
      ['customer_id', true],
      ['site_id', false],
      ['horizon_hours', false],
    ]);
  });

  it('describes the multipart and CSV bodies by their media types', () => {
    expect(Object.keys(operationOf('POST', '/v1/freemium-forecast')!.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(operationOf('POST', '/upload_train')!.requestBody!.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(operationOf('POST', '/upload_historical')!.requestBody!.content)).toEqual(['text/csv']);
  });

  it('resolves every $ref to a component', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const name of new Set(refs)) expect(document.components?.schemas?.[name]).toBeDefined();
  });

  it.each(['register', 'forecast', 'dispatch-optimization', 'policy-compliance', 'project-economics', 'interpolate'])('has an example request body for %s', (id) => {
    const route = ROUTES.find((r) => r.id === id)!;
    const examples = operationOf(route.method, route.path)!.requestBody!.content['application/json'].examples;
    expect(Object.keys(examples ?? {}).length).toBeGreaterThan(0);
  });

  it('has only examples that pass the route schema', () => {
    let checked = 0;
    for (const route of ROUTES) {
      const content = operationOf(route.method, route.path)!.requestBody?.content['application/json'];
      const values = [...(content?.example !== undefined ? [content.example] : []), ...Object.values(content?.examples ?? {}).map((e) => e.value)];
      if (!values.length) continue;
      const schema = route.request?.body;
      expect({ route: route.id, hasSchema: Boolean(schema) }).toEqual({ route: route.id, hasSchema: true });
      for (const value of values) {
        const parsed = schema!.safeParse(value);
        expect({ route: route.id, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ route: route.id, issues: [] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});

describe('GET /openapi.json and GET /docs', () => {
  const runtime = useRuntime();

  it('serves the document without a key, with the serving address as the first server', async () => {
    const r = await call(runtime(), 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.servers[0].url).toBe(runtime().url);
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(['/openapi.json', '/docs', '/api/register']));
  });

  it('serves an HTML page that loads only its own assets, and serves them', async () => {
    const page = await call(runtime(), 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = page.body as string;
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(references).toEqual(['docs?asset=swagger-ui.css', 'docs?asset=swagger-ui-bundle.js']);
    expect(html).not.toMatch(/https?:\/\//);
    for (const reference of references) {
      const asset = await fetch(new URL(reference, `${runtime().url}/docs`));
      expect({ reference, status: asset.status }).toEqual({ reference, status: 200 });
      expect(asset.headers.get('content-type')).toMatch(reference.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect((await asset.text()).length).toBeGreaterThan(10_000);
    }
  });

  it.each(['register', 'forecast', 'dispatch-optimization', 'policy-compliance', 'project-economics', 'interpolate'])('accepts the example body of %s as it stands', async (id) => {
    const route = ROUTES.find((r) => r.id === id)!;
    const { key } = await registerKey(runtime());
    const examples = operationOf(route.method, route.path)!.requestBody!.content['application/json'].examples!;
    for (const { value } of Object.values(examples)) {
      const r = await call(runtime(), route.method, route.path, { key: route.auth === 'key' ? key : undefined, json: value });
      expect({ id, status: r.status, body: r.status === 200 ? 'ok' : r.body }).toEqual({ id, status: 200, body: 'ok' });
    }
  });

  it('answers 404 for an asset it does not serve', async () => {
    const r = await call(runtime(), 'GET', '/docs?asset=../package.json');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ status: 'error', error: 'Asset not found' });
  });
});
