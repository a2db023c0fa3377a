/**
 * The success bodies of every endpoint, as zod schemas: one file per domain, following SPEC's response
 * field tables (section 2 resources, section 4), with the fields ARCHITECTURE 9 adds where the spec shows
 * none. Each route row names its own (shared/routes/); the API document and the e2e test of every
 * route's answer read them there.
 */
export * from './foundation';
export * from './ingestion';
export * from './forecasting';
export * from './training';
export * from './operations';
export * from './webhooks';
export * from './interpolation';
export * from './dispatch';
export * from './policy';
export * from './batch-edge';
