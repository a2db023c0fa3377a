/** The API document's success schemas and error examples: each route's own, none generic. */
import { buildOpenApiDocument } from '../../shared/openapi/document';
import * as z from 'zod';
import { ROUTES } from '../../shared/routes';
import { ProjectEconomicsResponse, TerminalBomResponse, UsageResponse } from '../../shared/schemas/responses';

type Content = Record<string, { schema?: { $ref?: string }; examples?: Record<string, { value: unknown }> }>;
type Operation = { responses: Record<string, { content?: Content }> };

const document = buildOpenApiDocument();
const operationOf = (method: string, path: string) => (document.paths?.[path] as Record<string, Operation>)[method.toLowerCase()];
const examplesOf = (method: string, path: string, status: number) => Object.values(operationOf(method, path).responses[String(status)].content!['application/json'].examples ?? {}).map((e) => e.value);

describe('success responses in the API document', () => {
  it('has a response schema on every row, a zod schema or schemas by 2xx status (lists the rows without one)', () => {
    const isSchemaMap = (r: (typeof ROUTES)[number]) =>
      !(r.response instanceof z.ZodType) && Object.entries(r.response).length > 0 && Object.entries(r.response).every(([status, s]) => /^2\d\d$/.test(status) && s instanceof z.ZodType);
    const missing = ROUTES.filter((r) => !(r.response instanceof z.ZodType) && !isSchemaMap(r)).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('shows each JSON success as a named schema component, never the generic object', () => {
    for (const route of ROUTES.filter((r) => !r.responseType)) {
      const op = operationOf(route.method, route.path);
      const successes = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      expect({ route: route.id, count: successes.length > 0 }).toEqual({ route: route.id, count: true });
      for (const [status, response] of successes) {
        const ref = response.content!['application/json'].schema?.$ref;
        expect({ route: route.id, status, ref }).toEqual({ route: route.id, status, ref: expect.stringMatching(/^#\/components\/schemas\/(?!JsonObject$)\w+$/) });
      }
    }
  });

  it('documents both answers of the batch endpoint: 200 with results, 202 when queued for a callback', () => {
    expect(Object.keys(operationOf('POST', '/api/batch-process').responses).filter((s) => s.startsWith('2'))).toEqual(['200', '202']);
  });

  it('lists the spec fields as required, so an answer without one fails', () => {
    const usage = document.components!.schemas!.UsageResponse as { required: string[] };
    expect(usage.required).toEqual(expect.arrayContaining(['user_email', 'tier', 'current_month', 'usage', 'limits', 'usage_percentage']));
    const table = { '-20%': { npv: 1, irr: null }, '-10%': { npv: 2, irr: 0.01 }, '+10%': { npv: 3, irr: 0.02 }, '+20%': { npv: 4, irr: 0.03 } };
    const valid = {
      status: 'success',
      financial_metrics: { npv: 1.5, irr: 0.1, payback_period: 5, discounted_payback_period: 6, lcoe: 0.05, roi: 1.2 },
      cash_flow_projection: [{ year: 0, revenue: 0, expenses: 0, depreciation_tax_shield: 0, tax_credit: 0, cash_flow: -100, cumulative: -100, discounted_cash_flow: -100 }],
      sensitivity_analysis: { revenue_sensitivity: table, capital_cost_sensitivity: table },
      investment_recommendation: 'Invest',
      assumptions: { tax_rate: 0.21, depreciation_schedule: 'none', net_investment: 100, defaults_applied: [] },
    };
    expect(ProjectEconomicsResponse.safeParse(valid).success).toBe(true);
    const { npv: _npv, ...withoutNpv } = valid.financial_metrics;
    expect(ProjectEconomicsResponse.safeParse({ ...valid, financial_metrics: withoutNpv }).success).toBe(false);
    expect(TerminalBomResponse.safeParse({ success: true, message: 'BOM generated', bom_id: 'b', asset_id: 'a', items: [] }).success).toBe(false);
    expect(UsageResponse.safeParse({ user_email: 'a@example.com', tier: 'free' }).success).toBe(false);
  });
});

describe('error examples in the API document', () => {
  it('gives each route its own messages from the spec', () => {
    expect(examplesOf('POST', '/terminal/track', 404)).toEqual([{ success: false, message: 'Order not found' }]);
    expect(examplesOf('POST', '/terminal/track', 400)).toEqual(expect.arrayContaining([{ success: false, message: 'Invalid callback URL' }]));
    expect(examplesOf('GET', '/forecast', 404)).toEqual([
      { status: 'error', error: 'No model found for customer' },
      { status: 'error', error: 'Site not found' },
    ]);
    expect(examplesOf('GET', '/forecast', 500)).toEqual([expect.objectContaining({ status: 'error', error: 'Forecast generation failed' })]);
    expect(examplesOf('POST', '/terminal/ml-models', 500)).toEqual([{ success: false, message: 'Failed to retrieve model registry' }]);
  });

  it('derives a 400 example from the route schema: the message an empty request gets', () => {
    expect(examplesOf('POST', '/api/register', 400)[0]).toEqual({ status: 'error', error: 'Invalid request: email is required' });
    expect(examplesOf('POST', '/api/dispatch-optimization', 400)[0]).toEqual({ status: 'error', error: expect.stringMatching(/^Invalid request: \w+/) });
    const first400 = new Set(ROUTES.filter((r) => r.body === 'json' && r.group === 'platform').map((r) => JSON.stringify(examplesOf(r.method, r.path, 400)[0])));
    expect(first400.size).toBeGreaterThan(10);
  });

  it('shows the simple 401 body on every keyed route, terminal ones included (SPEC authentication rule 4)', () => {
    for (const route of ROUTES.filter((r) => r.auth === 'key')) {
      const response = operationOf(route.method, route.path).responses['401'].content!['application/json'];
      expect({ route: route.id, ref: response.schema?.$ref, examples: examplesOf(route.method, route.path, 401) }).toEqual({
        route: route.id,
        ref: '#/components/schemas/SimpleError',
        examples: [{ status: 'error', error: 'Unauthorized' }],
      });
    }
  });
});
