/**
 * Answering a policy and compliance question (SPEC, POST /api/policy-compliance) from the knowledge base
 * alone: the answer is made of passages of the retrieved entries, each cited; the checklist and the
 * incentives come from the structured records of the entries that apply to the context. Nothing is
 * generated, so nothing can be invented; a question the knowledge base does not cover says so.
 */
import {
  COVERED_REGIONS,
  applicabilityConflicts,
  applicabilityUndetermined,
  describeContext,
  entryApplicability,
  entryApplies,
  jurisdictionChain,
  normalisePolicyContext,
  type NormalisedPolicyContext,
  type PolicyContextInput,
} from './context';
import { POLICY_KNOWLEDGE_BASE } from './knowledge-base';
import { MIN_RELEVANCE_SCORE, queryTerms, RELATIVE_SCORE_CUTOFF, searchPolicies, type PolicyHit } from './retrieval';
import { DETAIL_LEVELS, REQUIREMENT_STAGES, type DetailLevel, type PolicyEntry, type RequirementRecord, type RequirementStage } from './types';

export { DETAIL_LEVELS, type DetailLevel };

/** Passages per detail level: how many entries are cited, and how many sentences of each are quoted. */
export const DETAIL_PASSAGES: Readonly<Record<DetailLevel, { entries: number; sentences: number }>> = {
  summary: { entries: 2, sentences: 2 },
  standard: { entries: 3, sentences: 3 },
  detailed: { entries: 5, sentences: Number.POSITIVE_INFINITY },
};

/** Caps that keep a response readable; checklist items from cited entries are kept first. */
export const MAX_CHECKLIST_ITEMS = 12;
export const MAX_INCENTIVES = 8;

export interface PolicyResponseOptions {
  /** Number the passages `[1]`, `[2]` ... Sources are returned either way. @default true */
  include_citations?: boolean;
  /** @default true */
  include_compliance_checklist?: boolean;
  /** @default true */
  include_financial_incentives?: boolean;
  /** `summary`, `standard` or `detailed`; anything else reads as `standard`. @default 'standard' */
  detail_level?: string;
}

export interface PolicyQueryInput {
  query: string;
  context?: PolicyContextInput;
  response_options?: PolicyResponseOptions;
  /** Date (YYYY-MM-DD) against which incentive deadlines are judged. @default today (UTC) */
  as_of?: string;
}

export type ChecklistStatus = 'required' | 'recommended' | 'check_applicability';

export interface ComplianceItem {
  requirement: string;
  status: ChecklistStatus;
  deadline: string;
  responsible_party: string;
}

export interface FinancialIncentive {
  program: string;
  benefit: string;
  eligibility: string;
}

export interface PolicyAnswer {
  answer: string;
  /** "[n] <title> (<jurisdiction>, effective <date>) <url>", n matching the answer's markers. */
  sources: string[];
  compliance_checklist: ComplianceItem[];
  financial_incentives: FinancialIncentive[];
  next_steps: string[];
  /** False when no entry of the knowledge base covers the question in this context. */
  matched: boolean;
  /** How the context was read, what was widened or left out. */
  notes: string[];
  /** Ids of the cited entries, in citation order. */
  source_ids: string[];
  /** Only when the request's region is outside the knowledge base: the regions it does cover. */
  covered_regions?: { region: string; jurisdictions: string }[];
}

/** Thrown by callers that refuse an empty query (the service validates the body before calling). */
export class EmptyPolicyQuery extends Error {
  constructor() {
    super('query must not be empty');
    this.name = 'EmptyPolicyQuery';
  }
}

/** Sentences of a summary; the knowledge base writes no abbreviation followed by a capital, so this split is safe. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z"(])/).filter((s) => s.length > 0);
}

/**
 * The passage quoted from one entry: its first sentence (which says what the instrument is), then the
 * sentences sharing most terms with the query, in their original order.
 */
function passage(entry: PolicyEntry, terms: string[], maxSentences: number): string {
  const all = sentences(entry.summary);
  if (all.length <= maxSentences) return all.join(' ');
  const overlap = (s: string) => {
    const lower = s.toLowerCase();
    return terms.filter((t) => lower.includes(t)).length;
  };
  const ranked = all
    .map((s, i) => ({ i, score: i === 0 ? Number.POSITIVE_INFINITY : overlap(s) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i);
  return ranked.map(({ i }) => all[i]).join(' ');
}

export function formatSource(n: number, entry: PolicyEntry): string {
  return `[${n}] ${entry.title} (${entry.jurisdiction}, effective ${entry.effective_date}) ${entry.document_url}`;
}

function readDetailLevel(value: string | undefined, notes: string[]): DetailLevel {
  if (value === undefined) return 'standard';
  const level = value.trim().toLowerCase();
  if ((DETAIL_LEVELS as readonly string[]).includes(level)) return level as DetailLevel;
  notes.push(`detail_level "${value}" is not one of summary, standard, detailed: standard used.`);
  return 'standard';
}

/**
 * Jurisdictions whose records feed the checklist and incentives: the context's line of ancestry (a California
 * project owes US federal rules, not New York's), plus that of each cited entry (the question named it), plus
 * the EU level for a Europe-wide context. Without any region, only the cited entries' lines.
 */
function recordScope(context: NormalisedPolicyContext, cited: PolicyEntry[]): Set<string> {
  const scope = new Set<string>();
  if (context.jurisdiction) jurisdictionChain(context.jurisdiction).forEach((j) => scope.add(j));
  else if (context.region === 'EU') scope.add('EU');
  for (const entry of cited) jurisdictionChain(entry.jurisdiction).forEach((j) => scope.add(j));
  return scope;
}

/**
 * Status of a requirement record in this context:
 * - `recommended` when the record is voluntary (a step towards an optional benefit);
 * - `check_applicability` when it is conditional on facts the request does not carry, or when the record or
 *   its entry narrows a sector, size or installation type that the context leaves unknown;
 * - `required` otherwise (mandatory, and every filter it has is known and met).
 */
export function requirementStatus(entry: PolicyEntry, record: RequirementRecord, context: NormalisedPolicyContext): ChecklistStatus {
  if (record.obligation === 'voluntary') return 'recommended';
  if (record.obligation === 'conditional') return 'check_applicability';
  const undetermined =
    applicabilityUndetermined({ ...entryApplicability(entry), installation_types: undefined }, context) ||
    applicabilityUndetermined(record.applies_to ?? {}, context);
  return undetermined ? 'check_applicability' : 'required';
}

interface ChecklistCandidate extends ComplianceItem {
  stage: RequirementStage;
  cited: boolean;
  specificity: number;
}

const stageOrder = (stage: RequirementStage) => REQUIREMENT_STAGES.indexOf(stage);

function buildChecklist(entries: PolicyEntry[], citedIds: Set<string>, context: NormalisedPolicyContext): ChecklistCandidate[] {
  const candidates: ChecklistCandidate[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    for (const record of entry.requirements ?? []) {
      if (record.applies_to && applicabilityConflicts(record.applies_to, context)) continue;
      if (seen.has(record.requirement)) continue;
      seen.add(record.requirement);
      candidates.push({
        requirement: record.requirement,
        status: requirementStatus(entry, record, context),
        deadline: record.deadline,
        responsible_party: record.responsible_party,
        stage: record.stage,
        cited: citedIds.has(entry.id),
        specificity: jurisdictionChain(entry.jurisdiction).length,
      });
    }
  }
  // Keep the cited entries' records first, then the most specific jurisdiction; list by project stage.
  return candidates
    .sort((a, b) => Number(b.cited) - Number(a.cited) || b.specificity - a.specificity || stageOrder(a.stage) - stageOrder(b.stage))
    .slice(0, MAX_CHECKLIST_ITEMS)
    .sort((a, b) => stageOrder(a.stage) - stageOrder(b.stage));
}

function buildIncentives(entries: PolicyEntry[], citedIds: Set<string>, context: NormalisedPolicyContext, asOf: string, notes: string[]): FinancialIncentive[] {
  const offered: Array<FinancialIncentive & { cited: boolean }> = [];
  for (const entry of entries) {
    const incentive = entry.incentive;
    if (!incentive) continue;
    if (incentive.applies_to && applicabilityConflicts(incentive.applies_to, context)) continue;
    if (incentive.available_until !== undefined && incentive.available_until < asOf) {
      notes.push(`${incentive.program} is not listed: new projects could qualify only until ${incentive.available_until}.`);
      continue;
    }
    if (incentive.closed_to_new_applicants) {
      notes.push(`${incentive.program} is not listed: it is closed to new applicants.`);
      continue;
    }
    offered.push({ program: incentive.program, benefit: incentive.benefit, eligibility: incentive.eligibility, cited: citedIds.has(entry.id) });
  }
  return offered
    .sort((a, b) => Number(b.cited) - Number(a.cited))
    .slice(0, MAX_INCENTIVES)
    .map(({ program, benefit, eligibility }) => ({ program, benefit, eligibility }));
}

const STAGE_LABEL: Record<RequirementStage, string> = {
  design: 'Design',
  procurement: 'Procurement',
  permitting: 'Permitting',
  construction: 'Construction',
  connection: 'Grid connection',
  operation: 'Operation',
};

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function buildNextSteps(checklist: ChecklistCandidate[], incentives: FinancialIncentive[], cited: PolicyEntry[], context: NormalisedPolicyContext): string[] {
  const steps = checklist.map((item) => {
    const label = STAGE_LABEL[item.stage];
    if (item.status === 'check_applicability') {
      // Requirements that are themselves a check read as they are; others are asked as a question of applicability.
      return /^(check|determine|confirm|verify)\b/i.test(item.requirement)
        ? `${label}: ${lowerFirst(item.requirement)} (${item.deadline}).`
        : `${label}: check whether you must ${lowerFirst(item.requirement)} (${item.deadline}).`;
    }
    if (item.status === 'recommended') return `${label} (recommended): ${lowerFirst(item.requirement)} (${item.deadline}).`;
    return `${label}: ${lowerFirst(item.requirement)} (${item.deadline}).`;
  });
  for (const incentive of incentives) steps.push(`Apply for ${incentive.program} if you qualify: ${lowerFirst(incentive.eligibility)}.`);
  if (steps.length === 0) for (const entry of cited) steps.push(`Read ${entry.title} for the full requirements: ${entry.document_url}`);
  const missing = [
    context.jurisdiction === undefined ? 'the country or state' : undefined,
    context.sectors === undefined ? 'the sector' : undefined,
    context.project_size_kw === undefined ? 'the project size' : undefined,
    context.installation_types === undefined ? 'the installation type' : undefined,
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0) steps.push(`Give ${missing.join(', ')} to narrow the applicable rules.`);
  return steps;
}

function noMatch(context: NormalisedPolicyContext, notes: string[], reason: string): PolicyAnswer {
  return {
    answer:
      `No entry of the policy knowledge base covers this question for the given context (${describeContext(context)}). ` +
      'The knowledge base holds curated regulations, grid codes, permitting rules and incentives for the European Union, ' +
      'North America and Sub-Saharan Africa; rephrase the question or widen the context.',
    sources: [],
    compliance_checklist: [],
    financial_incentives: [],
    next_steps: [],
    matched: false,
    notes: [...notes, reason],
    source_ids: [],
  };
}

/**
 * A region outside the knowledge base: no instrument of another region is offered (a German registration rule
 * does not bind a project in Brazil), and the answer says what is covered.
 */
function regionNotCovered(region: string, notes: string[]): PolicyAnswer {
  return {
    answer:
      `The policy knowledge base does not cover "${region}": it holds curated regulations, grid codes, permitting rules and incentives ` +
      `for ${COVERED_REGIONS.map((r) => r.region).join(', ')} only, so it has no answer for a project there. ` +
      'Consult the national energy regulator of that region; for a covered region, give it as context.region.',
    sources: [],
    compliance_checklist: [],
    financial_incentives: [],
    next_steps: [],
    matched: false,
    notes,
    source_ids: [],
    covered_regions: COVERED_REGIONS.map((r) => ({ ...r })),
  };
}

/** Today's date in UTC as YYYY-MM-DD. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Answer a policy question from the knowledge base. The caller validates the body (non-empty query);
 * everything else degrades to "no filter" with a note.
 */
export function answerPolicyQuery(input: PolicyQueryInput): PolicyAnswer {
  const context = normalisePolicyContext(input.context);
  const notes = [...context.notes];
  const options = input.response_options ?? {};
  const includeCitations = options.include_citations ?? true;
  const includeChecklist = options.include_compliance_checklist ?? true;
  const includeIncentives = options.include_financial_incentives ?? true;
  const level = readDetailLevel(options.detail_level, notes);
  const asOf = input.as_of ?? todayUtc();

  if (context.uncovered_region !== undefined) return regionNotCovered(context.uncovered_region, notes);
  const terms = queryTerms(input.query);
  if (terms.length === 0) return noMatch(context, notes, 'The query has no searchable terms.');
  const hits = searchPolicies(input.query, context, DETAIL_PASSAGES.detailed.entries);
  const best = hits[0];
  if (!best) return noMatch(context, notes, 'No entry applicable to the context matches the query terms.');
  if (best.score < MIN_RELEVANCE_SCORE) {
    return noMatch(context, notes, `Best match scored ${best.score.toFixed(1)}, below the relevance threshold ${MIN_RELEVANCE_SCORE}.`);
  }

  const { entries: passageCount, sentences: sentenceCount } = DETAIL_PASSAGES[level];
  const cited: PolicyHit[] = hits.filter((h) => h.score >= RELATIVE_SCORE_CUTOFF * best.score).slice(0, passageCount);
  const citedEntries = cited.map((h) => h.entry);
  const citedIds = new Set(citedEntries.map((e) => e.id));

  const answer = cited
    .map((hit, i) => {
      const text = passage(hit.entry, terms, sentenceCount);
      // Markers only when asked for; the sources list is returned either way so the answer stays traceable.
      return includeCitations ? `${text} [${i + 1}]` : text;
    })
    .join('\n\n');
  const sources = citedEntries.map((entry, i) => formatSource(i + 1, entry));

  const scope = recordScope(context, citedEntries);
  const recordEntries = POLICY_KNOWLEDGE_BASE.filter((e) => scope.has(e.jurisdiction) && entryApplies(e, context));
  const checklist = includeChecklist ? buildChecklist(recordEntries, citedIds, context) : [];
  const incentives = includeIncentives ? buildIncentives(recordEntries, citedIds, context, asOf, notes) : [];

  return {
    answer,
    sources,
    compliance_checklist: checklist.map(({ requirement, status, deadline, responsible_party }) => ({ requirement, status, deadline, responsible_party })),
    financial_incentives: incentives,
    next_steps: buildNextSteps(checklist, incentives, citedEntries, context),
    matched: true,
    notes,
    source_ids: citedEntries.map((e) => e.id),
  };
}
