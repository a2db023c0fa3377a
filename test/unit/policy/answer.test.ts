import { answerPolicyQuery, requirementStatus, type PolicyQueryInput } from '../../../shared/domain/policy/answer';
import { normalisePolicyContext } from '../../../shared/domain/policy/context';
import { policyEntryById } from '../../../shared/domain/policy/knowledge-base';

const AS_OF = '2026-11-23';
const ask = (input: PolicyQueryInput) => answerPolicyQuery({ as_of: AS_OF, ...input });
const kenyaNetMetering: PolicyQueryInput = {
  query: 'Can I export excess solar power to Kenya Power and offset my bill?',
  context: { region: 'Kenya', sector: 'residential', project_size: '5 kW', installation_type: 'rooftop solar' },
};
const broadUsQuery: PolicyQueryInput = { query: 'What permits, grid connection rules and tax incentives apply to a solar project?', context: { region: 'US' } };
const markers = (answer: string) => [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));

describe('answering a policy question', () => {
  it('numbers the citations in the order of the sources, one per passage', () => {
    const result = ask({ ...broadUsQuery, response_options: { detail_level: 'detailed' } });

    expect(result.matched).toBe(true);
    expect(markers(result.answer)).toEqual(result.sources.map((_, i) => i + 1));
    result.source_ids.forEach((id, i) => {
      const entry = policyEntryById(id)!;
      expect(result.sources[i]).toBe(`[${i + 1}] ${entry.title} (${entry.jurisdiction}, effective ${entry.effective_date}) ${entry.document_url}`);
    });
  });

  it('quotes the cited entries: each passage is made of sentences of its source summary', () => {
    const result = ask(kenyaNetMetering);
    const passages = result.answer.split('\n\n');

    passages.forEach((p, i) => {
      const summary = policyEntryById(result.source_ids[i])!.summary;
      const body = p.replace(/ \[\d+\]$/, '');
      for (const sentence of body.split(/(?<=[.!?])\s+(?=[A-Z"(])/)) expect(summary).toContain(sentence);
    });
  });

  it('cites the Kenyan net-metering regulations first and nothing outside Kenya', () => {
    const result = ask(kenyaNetMetering);

    expect(result.source_ids[0]).toBe('ke-net-metering-regulations-2024');
    for (const source of result.sources) expect(source).toMatch(/\(KE, effective/);
    expect(result.sources.join(' ')).not.toMatch(/\(US|law\.cornell\.edu/);
  });

  it('changes the number of passages with detail_level', () => {
    const count = (detail_level: string) => ask({ ...broadUsQuery, response_options: { detail_level } }).sources.length;

    expect(count('summary')).toBe(2);
    expect(count('standard')).toBe(3);
    expect(count('detailed')).toBe(5);
    expect(ask(broadUsQuery).sources).toHaveLength(3);
  });

  it('reads an unknown detail_level as standard and notes it', () => {
    const result = ask({ ...broadUsQuery, response_options: { detail_level: 'verbose' } });

    expect(result.sources).toHaveLength(3);
    expect(result.notes).toContainEqual(expect.stringContaining('verbose'));
  });

  it('leaves citation markers out when include_citations is false but still lists the sources', () => {
    const result = ask({ ...kenyaNetMetering, response_options: { include_citations: false } });

    expect(result.answer).not.toMatch(/\[\d+\]/);
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.sources[0]).toMatch(/^\[1\] /);
  });

  it('omits the checklist and the incentives when their options are false', () => {
    const full = ask(kenyaNetMetering);
    const bare = ask({ ...kenyaNetMetering, response_options: { include_compliance_checklist: false, include_financial_incentives: false } });

    expect(full.compliance_checklist.length).toBeGreaterThan(0);
    expect(full.financial_incentives.length).toBeGreaterThan(0);
    expect(bare.compliance_checklist).toEqual([]);
    expect(bare.financial_incentives).toEqual([]);
    expect(bare.next_steps[0]).toMatch(/^Read Energy \(Net-Metering\) Regulations, 2024/);
  });

  it('builds the Kenyan checklist with statuses, and next steps in project order', () => {
    const result = ask(kenyaNetMetering);

    expect(result.compliance_checklist).toEqual([
      {
        requirement: 'Obtain the EPRA licence or permit required for the generation activity, unless the plant is for own use below the licensing thresholds',
        status: 'check_applicability',
        deadline: 'before construction',
        responsible_party: 'Project developer',
      },
      {
        requirement: 'Have the solar PV system designed and installed by an EPRA-licensed solar technician or contractor',
        status: 'required',
        deadline: 'at installation',
        responsible_party: 'System owner and contractor',
      },
      {
        requirement: 'Apply to the distribution licensee or retailer for net metering and sign the net-metering agreement',
        status: 'required',
        deadline: 'before connection',
        responsible_party: 'Consumer',
      },
    ]);
    expect(result.financial_incentives.map((i) => i.program)).toEqual(['Kenya net metering']);
    expect(result.next_steps.map((s) => s.split(':')[0])).toEqual(['Permitting', 'Construction', 'Grid connection', 'Apply for Kenya net metering if you qualify']);
  });

  it('marks a voluntary step recommended and a mandatory step with an unknown size threshold check_applicability', () => {
    const sgip = policyEntryById('us-ca-sgip')!;
    const eeg = policyEntryById('de-eeg-2023')!;
    const known = normalisePolicyContext({ region: 'Germany', project_size: '250 kW' });
    const unknown = normalisePolicyContext({ region: 'Germany' });

    expect(requirementStatus(sgip, sgip.requirements![0], normalisePolicyContext({ region: 'California' }))).toBe('recommended');
    expect(requirementStatus(eeg, eeg.requirements![0], known)).toBe('required');
    expect(requirementStatus(eeg, eeg.requirements![0], unknown)).toBe('check_applicability');
  });

  it('does not offer residential-only incentives to a 5 MW ground-mounted project', () => {
    const park = ask({
      query: 'Which tax credits and incentives can I get for this solar project?',
      context: { region: 'US', project_size: '5 MW', installation_type: 'ground-mounted PV' },
      as_of: '2025-06-01',
    });
    const home = ask({
      query: 'Which tax credits and incentives can I get for this solar project?',
      context: { region: 'US', sector: 'residential', project_size: '7 kW', installation_type: 'rooftop solar' },
      as_of: '2025-06-01',
    });

    expect(park.financial_incentives.map((i) => i.program)).not.toContain('Residential clean energy credit (26 U.S.C. § 25D)');
    expect(park.source_ids).not.toContain('us-irc-25d-residential-clean-energy');
    expect(home.financial_incentives.map((i) => i.program)).toContain('Residential clean energy credit (26 U.S.C. § 25D)');
  });

  it('leaves out incentives whose window closed before as_of, with a note', () => {
    const input: PolicyQueryInput = {
      query: 'Is there a federal tax credit for solar panels on my house?',
      context: { region: 'US', sector: 'residential', project_size: '7 kW', installation_type: 'rooftop solar' },
    };
    const before = answerPolicyQuery({ ...input, as_of: '2025-06-01' });
    const after = answerPolicyQuery({ ...input, as_of: '2026-03-01' });

    expect(before.financial_incentives.map((i) => i.program)).toContain('Residential clean energy credit (26 U.S.C. § 25D)');
    expect(after.financial_incentives.map((i) => i.program)).not.toContain('Residential clean energy credit (26 U.S.C. § 25D)');
    expect(after.notes).toContainEqual(expect.stringContaining('until 2025-12-31'));
    expect(after.source_ids[0]).toBe('us-irc-25d-residential-clean-energy');
  });

  it('keeps state rules of other states out of a California checklist', () => {
    const result = ask({
      query: 'What do I need to connect rooftop solar to the grid?',
      context: { region: 'California', sector: 'commercial', project_size: '100 kW', installation_type: 'rooftop solar' },
    });
    const text = JSON.stringify(result.compliance_checklist);

    expect(text).toContain('Rule 21');
    expect(text).not.toMatch(/PUCT|NYSERDA|Massachusetts/);
  });

  it.each([undefined, 'EU', 'Kenya', 'California'])('answers "no entry covers it" to an off-topic question (region %s)', (region) => {
    const result = ask({ query: 'recipe for chocolate cake', context: region ? { region } : undefined });

    expect(result.matched).toBe(false);
    expect(result.answer).toMatch(/^No entry of the policy knowledge base covers this question/);
    expect(result.sources).toEqual([]);
    expect(result.compliance_checklist).toEqual([]);
    expect(result.financial_incentives).toEqual([]);
    expect(result.next_steps).toEqual([]);
  });

  it('answers "no entry covers it" when nothing applies to the context', () => {
    // Ghana is a known jurisdiction with no entry yet: the filter leaves nothing to search.
    const result = ask({ query: 'net metering for rooftop solar', context: { region: 'Ghana' } });

    expect(result.matched).toBe(false);
    expect(result.notes).toContain('No entry applicable to the context matches the query terms.');
  });

  it('answers "no entry covers it" to a query made only of stop words', () => {
    const result = ask({ query: 'What are the rules?' });

    expect(result.matched).toBe(false);
    expect(result.notes).toContain('The query has no searchable terms.');
  });
});

describe('answerPolicyQuery for a region outside the knowledge base', () => {
  it.each(['Brazil', 'São Paulo, Brazil', 'Mars'])('answers matched: false for %s, with no instrument of another region and the covered regions', (region) => {
    const result = ask({ query: 'Which registration rules and feed-in incentives apply to a 10 kW rooftop solar system?', context: { region, installation_type: 'rooftop solar' } });

    expect(result.matched).toBe(false);
    expect(result.answer).toContain(`does not cover "${region}"`);
    expect(result.sources).toEqual([]);
    expect(result.compliance_checklist).toEqual([]);
    expect(result.financial_incentives).toEqual([]);
    expect(result.next_steps).toEqual([]);
    expect(result.answer).not.toMatch(/EEG|Marktstammdatenregister|Germany/);
    expect(result.covered_regions!.map((r) => r.region)).toEqual(['European Union', 'North America', 'Sub-Saharan Africa']);
    expect(result.covered_regions![0].jurisdictions).toContain('Germany');
  });

  it('still answers a covered region named in words', () => {
    const result = ask({ query: 'Which registration rules and feed-in incentives apply to a 10 kW rooftop solar system?', context: { region: 'Germany', installation_type: 'rooftop solar' } });

    expect(result.matched).toBe(true);
    expect(result.covered_regions).toBeUndefined();
  });
});
