/** The issue's "Done when" targets (issue #18), checked on the scores of every data set of each kind. */
import { ENSEMBLE } from '../../shared/domain/forecasting/engine';
import type { SetScore } from './scores';
import { SIMPLE_PEERS } from './scores';

export const TARGETS = {
  /** Load: MAPE no worse than R stlf on every demand set, better on average. */
  loadVsStlf: 1,
  /** Prices: rMAE on Nord Pool's 2017-18 test period with fundamentals. */
  npReportRmae: 0.5,
  /** Solar: skill over 24 h persistence at least the best simple peer's plus this. */
  solarSkillMargin: 0.05,
  /** Wind: skill over persistence at every lead hour 1..6. */
  windSkill: 0.1,
  /** 90% intervals: coverage within these bounds on every set (solar: and per season and third of the day). */
  coverage: [0.87, 0.93] as const,
};

export interface TargetCheck {
  target: string;
  value: string;
  pass: boolean | null;
}

const fmt = (x: number | undefined, digits = 3) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));
const inBand = (c: number) => c >= TARGETS.coverage[0] && c <= TARGETS.coverage[1];

/** The targets that apply to one set, each with the figure it was judged on. */
export function checkSet(s: SetScore): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const engine = s.models[ENSEMBLE];
  if (s.kind === 'load') {
    const stlf = s.engineVs.r_stlf;
    checks.push({ target: 'MAPE <= R stlf', value: stlf ? `ratio ${fmt(stlf.estimate)}` : 'R absent', pass: stlf ? stlf.estimate <= TARGETS.loadVsStlf : null });
  }
  if (s.kind === 'price') {
    if (s.role === 'REPORT' && s.name.startsWith('nord pool') && s.variant.startsWith('fundamentals')) {
      const rmae = engine?.vsReference?.estimate;
      checks.push({ target: `NP 2017-18 rMAE <= ${TARGETS.npReportRmae}`, value: fmt(rmae), pass: rmae === undefined ? null : rmae <= TARGETS.npReportRmae });
    }
    if (s.variant === 'no fundamentals') {
      const ratios = ['epftoolbox_naive', 'price_lear'].map((p) => s.engineVs[p]?.estimate).filter((r): r is number => r !== undefined);
      const worst = Math.max(...ratios);
      checks.push({ target: 'MAE < best of naive and LEAR', value: ratios.length === 2 ? `ratio to the better ${fmt(worst)}` : 'peer missing', pass: ratios.length === 2 ? worst < 1 : null });
    }
  }
  if (s.kind === 'solar') {
    const peers = SIMPLE_PEERS.solar.filter((p) => s.models[p]);
    const peerSkill = (p: string) => (p === s.reference ? 0 : (s.models[p].vsReference?.estimate ?? NaN));
    const best = Math.max(...peers.map(peerSkill).filter(Number.isFinite));
    const mine = engine?.vsReference?.estimate ?? NaN;
    checks.push({ target: `skill >= best simple peer + ${TARGETS.solarSkillMargin}`, value: `${fmt(mine)} vs ${fmt(best)}`, pass: Number.isFinite(mine) ? mine >= best + TARGETS.solarSkillMargin : null });
  }
  if (s.kind === 'wind') {
    const byHour = engine?.skillByLeadHour ?? [];
    checks.push({ target: `skill >= ${TARGETS.windSkill} at 1..6 h`, value: byHour.map((e) => fmt(e.estimate, 2)).join(' / '), pass: byHour.length ? byHour.every((e) => e.estimate >= TARGETS.windSkill) : null });
  }
  const c = s.intervals.coverage;
  checks.push({ target: `90% coverage in ${TARGETS.coverage.join('..')}`, value: fmt(c), pass: Number.isFinite(c) ? inBand(c) : null });
  if (s.kind === 'solar') {
    const regimes = Object.entries(s.intervals.regimes);
    const out = regimes.filter(([, r]) => !inBand(r.coverage));
    checks.push({ target: 'coverage per season and third of the day', value: out.length ? `outside: ${out.map(([n, r]) => `${n} ${fmt(r.coverage)}`).join(', ')}` : 'all inside', pass: regimes.length ? out.length === 0 : null });
  }
  return checks;
}

/**
 * Load: better than R stlf on average over the demand sets (mean of the engine / stlf MAPE ratios), judged on
 * the REPORT sets (the TUNE sets' mean is shown beside it: a gap between the two is tuning showing).
 */
export function loadAverageCheck(scores: readonly SetScore[]): TargetCheck | null {
  const rows = scores.filter((s) => s.kind === 'load' && s.variant === 'history only' && s.engineVs.r_stlf);
  const mean = (role: string) => {
    const ratios = rows.filter((s) => s.role === role).map((s) => s.engineVs.r_stlf.estimate);
    return { value: ratios.length ? ratios.reduce((a, b) => a + b, 0) / ratios.length : NaN, sets: ratios.length };
  };
  if (!rows.length) return null;
  const [report, tune] = [mean('REPORT'), mean('TUNE')];
  const judged = report.sets ? report : tune;
  return { target: 'load: MAPE better than R stlf on average', value: `mean ratio REPORT ${fmt(report.value)} over ${report.sets} sets, TUNE ${fmt(tune.value)} over ${tune.sets}`, pass: judged.value < 1 };
}
