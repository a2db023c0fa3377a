/**
 * Retrieval quality on a question set: recall@k, the share of each question's expected entries found among
 * the first k retrieved for its context, averaged over questions (Manning, Raghavan and Schütze, 2008, ch. 8).
 */
import { normalisePolicyContext, type PolicyContextInput } from './context';
import { searchPolicies } from './retrieval';

export interface EvaluationQuestion {
  id: string;
  query: string;
  context: PolicyContextInput;
  /** Entries a correct answer must cite; at least one. */
  expected_ids: string[];
}

export interface QuestionRecall {
  id: string;
  expected_ids: string[];
  retrieved_ids: string[];
  recall: number;
}

export interface RecallReport {
  k: number;
  /** Mean per-question recall, 0-1. */
  recall: number;
  /** Share of questions with at least one expected entry in the first k, 0-1. */
  hit_rate: number;
  per_question: QuestionRecall[];
}

/** recall@k of the retrieval (context filter + BM25) over the questions. */
export function recallAtK(questions: readonly EvaluationQuestion[], k: number): RecallReport {
  if (questions.length === 0) throw new Error('recallAtK needs at least one question');
  const perQuestion = questions.map((q) => {
    const retrieved = searchPolicies(q.query, normalisePolicyContext(q.context), k).map((h) => h.entry.id);
    const found = q.expected_ids.filter((id) => retrieved.includes(id)).length;
    return { id: q.id, expected_ids: q.expected_ids, retrieved_ids: retrieved, recall: found / q.expected_ids.length };
  });
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    k,
    recall: mean(perQuestion.map((q) => q.recall)),
    hit_rate: mean(perQuestion.map((q) => (q.recall > 0 ? 1 : 0))),
    per_question: perQuestion,
  };
}
