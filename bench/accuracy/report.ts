/** The markdown of the accuracy bench: one table per kind, the engine's ratios to its peers, and every member per set. */
import { ENSEMBLE } from '../../shared/domain/forecasting/engine';
import type { Estimate } from './bootstrap';
import type { AccuracyKind } from './datasets';
import { NAMED_PEERS, SIMPLE_PEERS, type SetScore } from './scores';
import { checkSet, loadAverageCheck, type TargetCheck } from './targets';

const TITLES: Record<AccuracyKind, string> = {
  load: 'Load, day-ahead: MAPE % (ratios < 1: the engine is better)',
  price: 'Prices, day-ahead: MAE EUR/MWh; rMAE = MAE / MAE of the epftoolbox naive',
  solar: 'Solar, day-ahead: skill = 1 - RMSE / RMSE of 24 h persistence (all steps); coverage over daylight',
  wind: 'Wind, 1-6 h ahead: skill = 1 - RMSE / RMSE of persistence of the last value',
};

const fmt = (x: number | undefined, digits = 3) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));
const ci = (e: Estimate | undefined, digits = 3) => (e ? `${fmt(e.estimate, digits)} [${fmt(e.lo, digits)}, ${fmt(e.hi, digits)}]` : 'n/a');
const verdict = (c: TargetCheck) => (c.pass === null ? `${c.target}: ${c.value} (not checked)` : `${c.pass ? 'PASS' : 'FAIL'} ${c.target}: ${c.value}`);

/** The figure shown per model in the kind's main table: MAPE, rMAE or skill. */
function headline(s: SetScore, model: string): string {
  const m = s.models[model];
  if (!m || !m.originsScored) return 'n/a';
  if (s.kind === 'load') return fmt(m.value, 2);
  if (s.kind === 'price') return model === s.reference ? `${fmt(m.value, 2)} (1)` : `${fmt(m.value, 2)} (${fmt(m.vsReference?.estimate)})`;
  return model === s.reference ? '0' : fmt(m.vsReference?.estimate);
}

function kindTable(kind: AccuracyKind, scores: readonly SetScore[]): string[] {
  const rows = scores.filter((s) => s.kind === kind);
  if (!rows.length) return [];
  const peers = [...SIMPLE_PEERS[kind], ...(NAMED_PEERS[kind] ?? [])];
  const rPeers = kind === 'load' && rows.some((s) => s.models.r_stlf) ? ['r_stlf', 'r_dshw'] : [];
  const columns = [...peers, ...rPeers];
  const lines = [`### ${TITLES[kind]}`, ''];
  lines.push(`| set | role | given | origins | engine | best member | ${columns.join(' | ')} | 90% coverage | mean width |`);
  lines.push(`|${'---|'.repeat(8 + columns.length)}`);
  for (const s of rows) {
    const best = s.bestMember ? `${s.bestMember} ${headline(s, s.bestMember)}` : 'n/a';
    lines.push(`| ${s.name} | ${s.role} | ${s.variant} | ${s.origins} | ${headline(s, ENSEMBLE)} | ${best} | ${columns.map((p) => headline(s, p)).join(' | ')} | ${fmt(s.intervals.coverage)} | ${fmt(s.intervals.width, 4)} |`);
  }
  lines.push('', 'Engine / peer ratio of the metric (paired over the same origins and steps; 95% bootstrap interval over origins):', '');
  lines.push(`| set | role | given | ${[...columns, 'best member'].join(' | ')} |`);
  lines.push(`|${'---|'.repeat(4 + columns.length)}`);
  for (const s of rows) lines.push(`| ${s.name} | ${s.role} | ${s.variant} | ${columns.map((p) => ci(s.engineVs[p])).join(' | ')} | ${s.bestMember ? `${s.bestMember}: ${ci(s.engineVs[s.bestMember])}` : 'n/a'} |`);
  if (kind === 'wind') {
    lines.push('', 'Engine skill by lead hour (95% interval):', '', '| set | role | 1 h | 2 h | 3 h | 4 h | 5 h | 6 h |', '|---|---|---|---|---|---|---|---|');
    for (const s of rows) lines.push(`| ${s.name} | ${s.role} | ${(s.models[ENSEMBLE]?.skillByLeadHour ?? []).map((e) => ci(e, 2)).join(' | ')} |`);
  }
  if (kind === 'solar') {
    lines.push('', 'Daylight skill and the engine\'s coverage by regime (daylight steps):', '');
    for (const s of rows) {
      const regimes = Object.entries(s.intervals.regimes).map(([n, r]) => `${n} ${fmt(r.coverage)} (width ${fmt(r.width, 1)})`).join('; ');
      lines.push(`- ${s.name}, ${s.variant}: daylight skill ${ci(s.models[ENSEMBLE]?.vsReferenceDaylight)}; ${regimes}`);
    }
  }
  if (kind === 'load' || kind === 'wind') {
    lines.push('', 'Coverage by tercile of the forecast level:', '');
    for (const s of rows) lines.push(`- ${s.name}, ${s.variant}: ${Object.entries(s.intervals.regimes).map(([n, r]) => `${n} ${fmt(r.coverage)}`).join('; ')}`);
  }
  lines.push('', 'Targets:', '');
  for (const s of rows) lines.push(`- ${s.name} (${s.role}, ${s.variant}): ${checkSet(s).map(verdict).join('; ')}`);
  const average = kind === 'load' ? loadAverageCheck(rows) : null;
  if (average) lines.push(`- ${verdict(average)}`);
  const missing = [...new Set(rows.flatMap((s) => s.missingPeers))];
  if (missing.length) lines.push('', `Not registered in the engine, so not scored: ${missing.join(', ')}.`);
  return [...lines, ''];
}

function memberDetails(s: SetScore): string[] {
  const lines = [`#### ${s.name} (${s.role}, ${s.variant}): ${s.origins} origins ${s.firstOrigin.slice(0, 16)} .. ${s.lastOrigin.slice(0, 16)}, ${s.historyDays} days of history`, ''];
  const relative = s.kind === 'solar' || s.kind === 'wind' ? `skill vs ${s.reference}` : `ratio to ${s.reference}`;
  lines.push(`| model | ${s.metric} | ${relative} [95%] | engine weight | origins | ms / origin | error |`, '|---|---|---|---|---|---|---|');
  const order = Object.keys(s.models).sort((a, b) => (s.models[a].value || Infinity) - (s.models[b].value || Infinity));
  for (const m of order) {
    const x = s.models[m];
    lines.push(`| ${m} | ${fmt(x.value, 4)} | ${m === s.reference ? '-' : ci(x.vsReference)} | ${fmt(s.engineWeights[m])} | ${x.originsScored} | ${fmt(x.msPerOrigin, 0)} | ${x.error ? x.error.slice(0, 80) : ''} |`);
  }
  return [...lines, ''];
}

export function markdown(scores: readonly SetScore[], header: string[], kinds: readonly AccuracyKind[], gaps: string | null): string {
  return [
    ...header,
    ...kinds.flatMap((k) => kindTable(k, scores)),
    ...(gaps ? [gaps, ''] : []),
    '## Every member per set',
    '',
    ...scores.flatMap(memberDetails),
  ].join('\n');
}
