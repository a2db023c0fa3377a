/** Ingestion: uploaded meter/inverter data to the standardised series, and the series as it is stored. */
export { InvalidCsv, InvalidDataPoints } from './errors';
export { HEAD_BYTES } from './layout';
export { NIGHT_CONSUMPTION_FLOOR, WATT_MAGNITUDE } from './finalise';
export { inspectCsvHead, standardiseCsv, standardisePoints, type DataPoint, type HeadInspection } from './standardise';
export { coverage, mergeSeries, parseSeries, partitionByMonth, serialiseSeries, SERIES_HEADER, type Coverage } from './series';
export { combineSummaries, summariseMonth, type MonthSummary } from './month-summary';
export * from './types';
