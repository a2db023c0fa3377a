/**
 * The optional language-model rephrasing of an answer may change words, never facts: it is kept only when it
 * carries exactly the original's citation markers and no number, date or address the original lacks.
 * Anything else falls back to the retrieved answer.
 */

const MARKERS = /\[\d+\]/g;
const FACTS = /\d+(?:[.,]\d+)*\s?%?|https?:\/\/\S+/g;

const normaliseFact = (fact: string) => fact.replace(/\s/g, '').replace(/[.,)]+$/, '');

export function rephrasingProblem(original: string, rephrased: string): string | undefined {
  if (!rephrased.trim()) return 'the rephrasing is empty';
  if (rephrased.length > 1.5 * original.length + 200) return 'the rephrasing is much longer than the answer it rephrases';
  const markers = (s: string) => [...new Set(s.match(MARKERS) ?? [])].sort().join(' ');
  if (markers(original) !== markers(rephrased)) return 'the rephrasing changed the citation markers';
  const known = new Set((original.match(FACTS) ?? []).map(normaliseFact));
  const added = (rephrased.match(FACTS) ?? []).map(normaliseFact).filter((f) => !known.has(f) && !/^\[?\d\]?$/.test(f));
  if (added.length) return `the rephrasing states what the sources do not: ${added.slice(0, 3).join(', ')}`;
  return undefined;
}
