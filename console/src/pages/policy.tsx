/**
 * Policy and economics: a question with its context answered with numbered citations linking to the sources, the
 * compliance checklist and the incentives (POST /api/policy-compliance); project economics with the cash flows
 * and the sensitivity of the NPV (POST /api/project-economics).
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Chart, PALETTE } from '../chart';
import { ActionForm, Area, Field, fmt, Table } from '../ui';

interface PolicyAnswer {
  answer: string;
  sources: string[];
  compliance_checklist?: { requirement: string; status: string; deadline?: string; responsible_party?: string }[];
  financial_incentives?: { program: string; benefit: string; eligibility?: string }[];
  next_steps?: string[];
}

interface Economics {
  financial_metrics: Record<string, number | null>;
  cash_flow_projection: { year: number; cash_flow: number; cumulative: number; discounted_cash_flow: number }[];
  sensitivity_analysis: Record<string, Record<string, { npv: number; irr: number | null }>>;
  investment_recommendation?: unknown;
}

/** A source line "[n] title ... https://..." split into its number, text and link. */
function parseSource(line: string): { n: string; text: string; url?: string } {
  const match = /^\[(\d+)\]\s*(.*?)(\s+(https?:\/\/\S+))?$/.exec(line);
  return match ? { n: match[1], text: match[2], url: match[4] } : { n: '', text: line };
}

/** The answer's [n] markers as links to the numbered sources below it. */
function Cited({ text }: { text: string }) {
  const parts = text.split(/(\[\d+\])/);
  return (
    <p data-testid="policy-answer">
      {parts.map((part) => {
        const n = /^\[(\d+)\]$/.exec(part)?.[1];
        return n ? (
          <a href={`#src-${n}`} onClick={(e) => (e.preventDefault(), document.getElementById(`src-${n}`)?.focus())} aria-label={`source ${n}`}>
            [{n}]
          </a>
        ) : (
          part
        );
      })}
    </p>
  );
}

const PERCENT_ORDER = ['-20%', '-10%', '0%', '+10%', '+20%'];

export function Policy() {
  const [query, setQuery] = useState('Which permits and incentives apply to a 50 kW rooftop system on a commercial building?');
  const [context, setContext] = useState({ region: 'Germany', sector: 'commercial', project_size: '50 kW', installation_type: 'rooftop solar' });
  const [answer, setAnswer] = useState<PolicyAnswer | null>(null);
  const [project, setProject] = useState({ capital_cost: '1200000', annual_revenue: '180000', annual_expenses: '25000', project_lifetime: '25', discount_rate: '0.07', degradation_rate: '0.005', annual_energy_kwh: '1600000' });
  const [economics, setEconomics] = useState<Economics | null>(null);

  const sensitivity = economics && (() => {
    const npv = economics.financial_metrics.npv ?? 0;
    const drivers = Object.entries(economics.sensitivity_analysis);
    const steps = PERCENT_ORDER.map((p) => Number(p.replace('%', '')));
    return (
      <Chart
        title="Sensitivity: NPV as each driver moves"
        testId="sensitivity-chart"
        x={{ label: 'change of the driver, %' }}
        times={steps}
        lines={drivers.map(([name, cases], k) => ({
          label: name.replace(/_sensitivity$/, '').replace(/_/g, ' '),
          values: PERCENT_ORDER.map((p) => (p === '0%' ? npv : (cases[p]?.npv ?? null))),
          color: [PALETTE.blue, PALETTE.vermillion, PALETTE.green, PALETTE.purple][k % 4],
          width: 2,
        }))}
        axes={[{ scale: 'y', label: 'NPV' }]}
      />
    );
  })();

  return (
    <>
      <section aria-labelledby="ask-h">
        <h2 id="ask-h">Ask a policy question</h2>
        <ActionForm
          label="Ask"
          testId="policy-form"
          run={async () =>
            setAnswer(
              await api<PolicyAnswer>('POST', '/api/policy-compliance', {
                query,
                context,
                response_options: { include_citations: true, include_compliance_checklist: true, include_financial_incentives: true, detail_level: 'standard' },
              }),
            )
          }
        >
          <Area label="Question" value={query} onInput={setQuery} rows={2} />
          <Field label="Region" value={context.region} onInput={(v) => setContext({ ...context, region: v })} />
          <Field label="Sector" value={context.sector} onInput={(v) => setContext({ ...context, sector: v })} />
          <Field label="Project size" value={context.project_size} onInput={(v) => setContext({ ...context, project_size: v })} />
          <Field label="Installation" value={context.installation_type} onInput={(v) => setContext({ ...context, installation_type: v })} />
        </ActionForm>
        {answer && (
          <>
            <Cited text={answer.answer} />
            <h3>Sources</h3>
            <ol class="sources" data-testid="policy-sources">
              {answer.sources.map((line) => {
                const s = parseSource(line);
                return (
                  <li id={`src-${s.n}`} tabIndex={-1} value={Number(s.n) || undefined}>
                    {s.url ? (
                      <a href={s.url} target="_blank" rel="noopener noreferrer">
                        {s.text}
                      </a>
                    ) : (
                      s.text
                    )}
                  </li>
                );
              })}
            </ol>
            <Table
              caption="Compliance checklist"
              rows={answer.compliance_checklist ?? []}
              columns={[
                ['Requirement', (c) => c.requirement],
                ['Status', (c) => c.status.replace(/_/g, ' ')],
                ['When', (c) => c.deadline ?? '–'],
                ['Who', (c) => c.responsible_party ?? '–'],
              ]}
            />
            <Table
              caption="Incentives"
              rows={answer.financial_incentives ?? []}
              columns={[
                ['Programme', (i) => i.program],
                ['Benefit', (i) => i.benefit],
                ['Eligibility', (i) => i.eligibility ?? '–'],
              ]}
            />
          </>
        )}
      </section>

      <section aria-labelledby="econ-h">
        <h2 id="econ-h">Project economics</h2>
        <ActionForm
          label="Evaluate"
          testId="economics-form"
          run={async () =>
            setEconomics(
              await api<Economics>('POST', '/api/project-economics', {
                project_config: Object.fromEntries(Object.entries(project).map(([k, v]) => [k, Number(v)])),
                revenue_streams: { energy_sales: Number(project.annual_revenue), capacity_payments: 0, ancillary_services: 0, carbon_credits: 0 },
                incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_5', grant_funding: 0 },
              }),
            )
          }
        >
          {Object.entries(project).map(([name, value]) => (
            <Field label={name.replace(/_/g, ' ')} type="number" value={value} onInput={(v) => setProject({ ...project, [name]: v })} />
          ))}
        </ActionForm>
        {economics && (
          <>
            <dl class="kv" data-testid="economics-metrics">
              {Object.entries(economics.financial_metrics).map(([k, v]) => (
                <>
                  <dt>{k.replace(/_/g, ' ')}</dt>
                  <dd>{fmt(v, 4)}</dd>
                </>
              ))}
            </dl>
            <Chart
              title="Cash flows by year and their running total"
              testId="cashflow-chart"
              x={{ label: 'year' }}
              times={economics.cash_flow_projection.map((c) => c.year)}
              lines={[
                { label: 'Cash flow', values: economics.cash_flow_projection.map((c) => c.cash_flow), color: PALETTE.blue, stepped: true, fill: 'rgba(0,114,178,0.25)' },
                { label: 'Cumulative', values: economics.cash_flow_projection.map((c) => c.cumulative), color: PALETTE.vermillion, width: 2 },
                { label: 'Discounted', values: economics.cash_flow_projection.map((c) => c.discounted_cash_flow), color: PALETTE.green, dash: [4, 4] },
              ]}
              axes={[{ scale: 'y', label: 'currency' }]}
            />
            {sensitivity}
          </>
        )}
      </section>
    </>
  );
}
