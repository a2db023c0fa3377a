/** Scoring detection against hand labels: precision and recall of the steps that anomalies cover. */
import type { Anomaly, AnomalyKind } from './detection';

export interface LabelScore {
  labelled: number;
  flagged: number;
  /** NaN when nothing was flagged (precision) or nothing labelled (recall). */
  precision: number;
  recall: number;
}

/** Per step: a step is flagged when an anomaly of one of `kinds` spans it, and counted against its label. */
export function scoreAgainstLabels(t: readonly number[], labels: readonly boolean[], anomalies: readonly Anomaly[], kinds: readonly AnomalyKind[]): LabelScore {
  const spans = anomalies.filter((a) => kinds.includes(a.kind));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  t.forEach((x, i) => {
    const flagged = spans.some((a) => x >= a.start && x <= a.end);
    if (flagged && labels[i]) tp++;
    else if (flagged) fp++;
    else if (labels[i]) fn++;
  });
  return { labelled: tp + fn, flagged: tp + fp, precision: tp + fp ? tp / (tp + fp) : NaN, recall: tp + fn ? tp / (tp + fn) : NaN };
}
