/**
 * R's classical load forecasters as peers, on exactly the histories the engine got (bench only, never CI):
 * `forecast::stlf` (MSTL decomposition with daily and weekly seasonality, ETS on the seasonally adjusted
 * series, seasonal components carried forward: Bandara, Hyndman & Bergmeir 2021; Hyndman & Athanasopoulos,
 * FPP 3rd ed.) and `forecast::dshw` (double-seasonal Holt-Winters, Taylor 2003). One Rscript process per data
 * set reads every origin's history from a temporary file and writes the forecasts back; it runs beside the
 * engine's own evaluation. dshw's likelihood search takes about a minute per origin here (stlf about a second),
 * so it runs on the origins the caller marks. Without `Rscript` on PATH (../rscript.ts) it is skipped.
 */
import type { RegularSeries } from '../../shared/domain/forecasting/types';
import { runRscript } from '../rscript';

export const R_PEERS = ['r_stlf', 'r_dshw'] as const;

// Missing values are interpolated by na.interp (as forecast's own functions advise) before either model.
const SCRIPT = `
suppressMessages(library(forecast))
args <- commandArgs(TRUE)
p1 <- as.integer(args[3]); p2 <- as.integer(args[4]); h <- as.integer(args[5])
out <- file(args[2], "w")
for (line in readLines(args[1])) {
  parts <- strsplit(line, "|", fixed = TRUE)[[1]]
  y <- msts(suppressWarnings(as.numeric(strsplit(parts[2], ",")[[1]])), seasonal.periods = c(p1, p2))
  if (anyNA(y)) y <- na.interp(y)
  t0 <- proc.time()[["elapsed"]]
  f1 <- tryCatch(as.numeric(stlf(y, h = h)$mean), error = function(e) rep(NA, h))
  t1 <- proc.time()[["elapsed"]]
  f2 <- if (parts[1] == "1") tryCatch(as.numeric(dshw(y, period1 = p1, period2 = p2, h = h)$mean), error = function(e) rep(NA, h)) else rep(NA, h)
  t2 <- proc.time()[["elapsed"]]
  writeLines(paste(t1 - t0, t2 - t1, paste(f1, collapse = ","), paste(f2, collapse = ","), sep = ";"), out)
}
close(out)
`;

export interface RPeerForecasts {
  /** Per peer and origin, the forecast (null where R failed). */
  forecasts: Record<string, (number[] | null)[]>;
  /** Per peer, wall time of its fits, ms. */
  ms: Record<string, number>;
  error?: string;
}

/**
 * Starts R on the histories (daily and weekly seasonality at the series' step), dshw only where `dshwAt` is
 * true; resolves when R has answered.
 */
export async function runRPeers(histories: readonly RegularSeries[], horizonSteps: number, dshwAt: readonly boolean[]): Promise<RPeerForecasts> {
  const { lines, error } = await runRscript(SCRIPT, histories, horizonSteps, (values, k) => (dshwAt[k] ? '1|' : '0|') + values);
  const result: RPeerForecasts = { forecasts: { r_stlf: [], r_dshw: [] }, ms: { r_stlf: 0, r_dshw: 0 } };
  if (error) result.error = error;
  if (!lines) {
    result.forecasts = { r_stlf: histories.map(() => null), r_dshw: histories.map(() => null) };
    return result;
  }
  const parse = (cells = '') => {
    const values = cells.split(',').map(Number);
    return values.length === horizonSteps && values.some(Number.isFinite) ? values : null;
  };
  for (const line of lines) {
    const [stlfSeconds, dshwSeconds, stlf, dshw] = line.split(';');
    result.forecasts.r_stlf.push(parse(stlf));
    result.forecasts.r_dshw.push(parse(dshw));
    result.ms.r_stlf += 1000 * Number(stlfSeconds);
    result.ms.r_dshw += 1000 * Number(dshwSeconds);
  }
  return result;
}
