/**
 * Policy and economics benchmark: retrieval recall@3 on the question set (shared/domain/policy/
 * evaluation-questions.json) against a term-overlap baseline measured in the same run (the same context
 * filter, entries ranked by how many query words they contain), and the latency of a full answer over the
 * whole knowledge base (no context filter) and of a project-economics evaluation.
 * Writes bench/results/policy.{json,md}.
 */
import { projectEconomics } from '../shared/domain/economics';
import {
  answerPolicyQuery,
  entryApplies,
  normalisePolicyContext,
  POLICY_KNOWLEDGE_BASE,
  queryTerms,
  recallAtK,
  warmPolicyIndex,
  type EvaluationQuestion,
} from '../shared/domain/policy';
import questions from '../shared/domain/policy/evaluation-questions.json';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const K = 3;
const ROUNDS = 20;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** The baseline: entries that apply to the context, ranked by the number of distinct query words in their text. */
function overlapRecall(set: readonly EvaluationQuestion[], k: number): number {
  const recalls = set.map((q) => {
    const ctx = normalisePolicyContext(q.context);
    const terms = new Set(queryTerms(q.query));
    const ranked = POLICY_KNOWLEDGE_BASE.filter((e) => entryApplies(e, ctx))
      .map((e) => {
        const words = new Set(queryTerms(`${e.title} ${e.summary}`));
        return { id: e.id, score: [...terms].filter((t) => words.has(t)).length };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
      .map((r) => r.id);
    return q.expected_ids.filter((id) => ranked.includes(id)).length / q.expected_ids.length;
  });
  return recalls.reduce((a, b) => a + b, 0) / recalls.length;
}

function timeEach(run: () => void): number[] {
  const ms: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    run();
    ms.push(performance.now() - started);
  }
  return ms;
}

export async function benchPolicy(): Promise<void> {
  const set = questions as EvaluationQuestion[];
  const indexStarted = performance.now();
  warmPolicyIndex();
  const indexMs = performance.now() - indexStarted;
  const bm25 = recallAtK(set, K);
  const baseline = overlapRecall(set, K);
  const bm25AtOne = recallAtK(set, 1);
  const baselineAtOne = overlapRecall(set, 1);

  const answerMs = set.flatMap((q) => timeEach(() => answerPolicyQuery({ query: q.query, response_options: { detail_level: 'detailed' } })));
  const economicsMs = timeEach(() =>
    projectEconomics({
      project_config: { capital_cost: 1_200_000, annual_revenue: 180_000, annual_expenses: 25_000, project_lifetime: 25, discount_rate: 0.07, degradation_rate: 0.005, annual_energy_kwh: 1_600_000 },
      incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_5', grant_funding: 50_000 },
    }),
  );
  const out = {
    measured_at: new Date().toISOString(),
    knowledge_base_entries: POLICY_KNOWLEDGE_BASE.length,
    questions: set.length,
    recall_at_3: roundHalfUp(bm25.recall, 3),
    hit_rate_at_3: roundHalfUp(bm25.hit_rate, 3),
    baseline_term_overlap_recall_at_3: roundHalfUp(baseline, 3),
    recall_at_1: roundHalfUp(bm25AtOne.recall, 3),
    baseline_term_overlap_recall_at_1: roundHalfUp(baselineAtOne, 3),
    missed: bm25.per_question.filter((q) => q.recall < 1).map((q) => ({ id: q.id, expected: q.expected_ids, retrieved: q.retrieved_ids })),
    index_build_ms: roundHalfUp(indexMs, 1),
    answer_latency_ms: { p50: roundHalfUp(percentile(answerMs, 0.5), 3), p95: roundHalfUp(percentile(answerMs, 0.95), 3), max: roundHalfUp(Math.max(...answerMs), 3) },
    economics_latency_ms: { p50: roundHalfUp(percentile(economicsMs, 0.5), 3), p95: roundHalfUp(percentile(economicsMs, 0.95), 3) },
    targets: { wanted: 'recall@3 >= 0.9; a policy answer over the whole knowledge base under 50 ms' },
  };
  const lines = [
    '# Policy and economics benchmark',
    '',
    `${out.knowledge_base_entries} knowledge-base entries, ${out.questions} questions with their expected entries.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| recall@3 (context filter + BM25, MiniSearch) | ${out.recall_at_3} |`,
    `| recall@3 of the term-overlap baseline, same run | ${out.baseline_term_overlap_recall_at_3} |`,
    `| questions with an expected entry in the top 3 | ${out.hit_rate_at_3} |`,
    `| recall@1, BM25 / term overlap | ${out.recall_at_1} / ${out.baseline_term_overlap_recall_at_1} |`,
    `| answer latency over the whole knowledge base, p50 / p95 / max ms | ${out.answer_latency_ms.p50} / ${out.answer_latency_ms.p95} / ${out.answer_latency_ms.max} |`,
    `| index build (once per process), ms | ${out.index_build_ms} |`,
    `| project economics (25 years, MACRS 5, ITC, grant, sensitivity), p50 / p95 ms | ${out.economics_latency_ms.p50} / ${out.economics_latency_ms.p95} |`,
    '',
    `Wanted: ${out.targets.wanted}.`,
    '',
  ];
  writeResults('policy', out, lines.join('\n'));
}
