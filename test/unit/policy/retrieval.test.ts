import questions from '../../../shared/domain/policy/evaluation-questions.json';
import { normalisePolicyContext } from '../../../shared/domain/policy/context';
import { recallAtK, type EvaluationQuestion } from '../../../shared/domain/policy/evaluation';
import { policyEntryById } from '../../../shared/domain/policy/knowledge-base';
import { processPolicyTerm, queryTerms, searchPolicies } from '../../../shared/domain/policy/retrieval';

const questionSet = questions as EvaluationQuestion[];
const ids = (query: string, region?: string, extra: Record<string, string> = {}) =>
  searchPolicies(query, normalisePolicyContext({ region, ...extra }), 10).map((h) => h.entry.id);

describe('policy retrieval', () => {
  it('has a question set of at least 25 questions whose expected entries exist', () => {
    expect(questionSet.length).toBeGreaterThanOrEqual(25);
    for (const q of questionSet) {
      expect(q.expected_ids.length).toBeGreaterThan(0);
      for (const id of q.expected_ids) expect({ q: q.id, id, exists: policyEntryById(id) !== undefined }).toEqual({ q: q.id, id, exists: true });
    }
  });

  it('phrases questions naturally, never quoting an expected entry title', () => {
    for (const q of questionSet) {
      for (const id of q.expected_ids) expect(q.query.toLowerCase()).not.toContain(policyEntryById(id)!.title.toLowerCase());
    }
  });

  it('reaches recall@3 of at least 0.9 on the question set', () => {
    const report = recallAtK(questionSet, 3);

    expect(report.per_question).toHaveLength(questionSet.length);
    expect(report.recall).toBeGreaterThanOrEqual(0.9);
    expect(report.hit_rate).toBeGreaterThanOrEqual(0.9);
  });

  it('scores recall per question as the share of expected entries retrieved', () => {
    const report = recallAtK(
      [{ id: 'x', query: 'federal investment tax credit for a commercial solar array', context: { region: 'US', sector: 'commercial' }, expected_ids: ['us-irc-48-energy-credit', 'ke-energy-act-2019'] }],
      3,
    );

    expect(report.recall).toBe(0.5);
    expect(report.hit_rate).toBe(1);
  });

  it('lets a German context see EU-wide entries but no other member state', () => {
    const found = ids('permit granting deadline for rooftop solar', 'Germany');

    expect(found).toContain('eu-red-iii-2023-2413');
    expect(found.every((id) => id.startsWith('eu-') || id.startsWith('de-'))).toBe(true);
  });

  it('lets a California context see US federal entries but not other states', () => {
    const found = ids('federal tax credit for solar and storage', 'California');

    expect(found).toContain('us-irc-48e-clean-electricity-itc');
    expect(found.some((id) => id.startsWith('us-ny-') || id.startsWith('us-ma-') || id.startsWith('us-tx-'))).toBe(false);
  });

  it('never returns an entry of another region for a Kenyan context', () => {
    for (const query of ['net metering for solar', 'tax credit for batteries', 'interconnection rules for inverters', 'licence to install solar']) {
      for (const id of ids(query, 'Kenya')) expect(policyEntryById(id)!.jurisdiction).toBe('KE');
    }
  });

  it('drops entries whose size range excludes the project', () => {
    expect(ids('net metering', 'Kenya', { project_size: '500 kW' })).toContain('ke-net-metering-regulations-2024');
    expect(ids('net metering', 'Kenya', { project_size: '5 MW' })).not.toContain('ke-net-metering-regulations-2024');
  });

  it('drops entries of other installation types', () => {
    const found = ids('who may install the system and what licence is needed', 'Kenya', { installation_type: 'solar water heater' });

    expect(found).toContain('ke-solar-water-heating-regulations-2025');
    expect(found).not.toContain('ke-net-metering-regulations-2024');
    expect(ids('who may install the system and what licence is needed', 'Kenya', { installation_type: 'rooftop solar' })).not.toContain('ke-solar-water-heating-regulations-2025');
  });

  it('stems plurals and drops stop words', () => {
    expect(processPolicyTerm('Batteries')).toBe('battery');
    expect(processPolicyTerm('credits')).toBe('credit');
    expect(processPolicyTerm('business')).toBe('business');
    expect(processPolicyTerm('the')).toBeNull();
    expect(queryTerms('What are the rules for my project?')).toEqual(['project']);
  });
});
