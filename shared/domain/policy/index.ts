/** Policy intelligence (ARCHITECTURE 7): curated knowledge base, context filters, BM25 retrieval, cited answers. */
export * from './types';
export { POLICY_KNOWLEDGE_BASE, policyEntryById, policyEntrySchema } from './knowledge-base';
export {
  normalisePolicyContext,
  parseProjectSizeKw,
  entryApplies,
  jurisdictionChain,
  jurisdictionName,
  JURISDICTIONS,
  RESIDENTIAL_MAX_KW,
  type NormalisedPolicyContext,
  type PolicyContextInput,
} from './context';
export { searchPolicies, warmPolicyIndex, queryTerms, MIN_RELEVANCE_SCORE, RELATIVE_SCORE_CUTOFF, type PolicyHit } from './retrieval';
export {
  answerPolicyQuery,
  requirementStatus,
  formatSource,
  EmptyPolicyQuery,
  DETAIL_LEVELS,
  DETAIL_PASSAGES,
  MAX_CHECKLIST_ITEMS,
  MAX_INCENTIVES,
  type DetailLevel,
  type PolicyAnswer,
  type PolicyQueryInput,
  type PolicyResponseOptions,
  type ComplianceItem,
  type FinancialIncentive,
  type ChecklistStatus,
} from './answer';
export { recallAtK, type EvaluationQuestion, type QuestionRecall, type RecallReport } from './evaluation';
export { rephrasingProblem } from './rephrasing-guard';
