/**
 * BM25 retrieval over the knowledge base (MiniSearch, whose scoring is BM25+: Lv and Zhai, 2011), restricted
 * to the entries that apply to the request's context. The index holds every entry and is built once per
 * process, on first use; the context acts as a filter at query time.
 */
import MiniSearch from 'minisearch';
import { entryApplies, jurisdictionChain, jurisdictionName, type NormalisedPolicyContext } from './context';
import { POLICY_KNOWLEDGE_BASE } from './knowledge-base';
import type { PolicyEntry } from './types';

/**
 * Below this score the best hit is taken as no match. Measured (bench of the question set): the best relevant
 * hit of each evaluation question scores 98 or more, a bare acronym such as "ITC" about 8, while queries
 * outside the domain score 0 or a few fuzzy points ("recipe for chocolate cake": 4.1 at most).
 */
export const MIN_RELEVANCE_SCORE = 6;

/** Hits scoring under this fraction of the best one are dropped from answers, so weak matches are not cited. */
export const RELATIVE_SCORE_CUTOFF = 0.2;

/** Field weights: the official title and the curated aliases say most about what an entry is. */
const FIELD_BOOST = { title: 2, keywords: 2, summary: 1, records: 0.7, jurisdiction: 1 } as const;

/** Relative edit distance allowed for fuzzy matching (0.15: one typo in a word of 7 letters or more). */
const FUZZY = 0.15;

const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any apply applies are as at be been before being below between both but by can could ' +
    'did do does doing done during each few for from further get gets got had has have having he her here him his how i if in into is it its ' +
    'just me more most my need needed needs no nor not now of off on once only or other our ours out over own please same she should so ' +
    'some such tell than that the their them then there these they this those through to too under until up us very want was we were what ' +
    'when where which while who whom why will with would you your rule rules there know'
  ).split(' '),
);

/**
 * Lower case without accents, stop words dropped, light plural stemming ("credits" -> "credit", "batteries"
 * -> "battery") so singular and plural forms meet; prefix search covers the other inflections.
 */
export function processPolicyTerm(term: string): string | null {
  const t = term
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  if (t.length === 0 || STOP_WORDS.has(t)) return null;
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && /(ss|us|is)$/.test(t)) return t;
  if (t.length > 3 && t.endsWith('s') && !/\d/.test(t)) return t.slice(0, -1);
  return t;
}

/** Words, numbers with dots ("2018/2001" -> "2018", "2001"; "690.12" kept), and section signs dropped. */
function tokenise(text: string): string[] {
  return text.split(/[^\p{L}\p{N}.]+/u).map((w) => w.replace(/^\.+|\.+$/g, '')).filter((w) => w.length > 0);
}

interface IndexedEntry {
  id: string;
  title: string;
  summary: string;
  keywords: string;
  records: string;
  jurisdiction: string;
}

function indexedFields(entry: PolicyEntry): IndexedEntry {
  const records = [
    ...(entry.requirements ?? []).map((r) => r.requirement),
    ...(entry.incentive ? [entry.incentive.program, entry.incentive.benefit, entry.incentive.eligibility] : []),
  ];
  return {
    id: entry.id,
    title: entry.title,
    summary: entry.summary,
    keywords: entry.keywords.join(' ; '),
    records: records.join(' ; '),
    jurisdiction: jurisdictionChain(entry.jurisdiction).map(jurisdictionName).join(' '),
  };
}

let index: MiniSearch<IndexedEntry> | undefined;

/** The process-wide index, built on first use. */
function policyIndex(): MiniSearch<IndexedEntry> {
  if (!index) {
    index = new MiniSearch<IndexedEntry>({
      idField: 'id',
      fields: ['title', 'summary', 'keywords', 'records', 'jurisdiction'],
      tokenize: tokenise,
      processTerm: processPolicyTerm,
      searchOptions: { boost: FIELD_BOOST, fuzzy: FUZZY, prefix: true, combineWith: 'OR' },
    });
    index.addAll(POLICY_KNOWLEDGE_BASE.map(indexedFields));
  }
  return index;
}

/** Build the index now (e.g. at cold start) rather than on the first query. */
export function warmPolicyIndex(): void {
  policyIndex();
}

export interface PolicyHit {
  entry: PolicyEntry;
  /** BM25+ score with the field boosts above. */
  score: number;
  /** Query terms that matched this entry. */
  matched_terms: string[];
}

const entriesById = new Map(POLICY_KNOWLEDGE_BASE.map((e) => [e.id, e]));

/** The content terms of a query after stop words and stemming (empty: nothing to search for). */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenise(query).map(processPolicyTerm).filter((t): t is string => t !== null))];
}

/**
 * Entries that apply to the context, ranked by BM25 score for the query, best first; no relevance
 * threshold here (see MIN_RELEVANCE_SCORE).
 */
export function searchPolicies(query: string, context: NormalisedPolicyContext, limit = 10): PolicyHit[] {
  const results = policyIndex().search(query, { filter: (r) => entryApplies(entriesById.get(r.id as string)!, context) });
  return results.slice(0, limit).map((r) => ({ entry: entriesById.get(r.id as string)!, score: r.score, matched_terms: r.queryTerms }));
}
