/** Deterministic random draws for tests and benchmark inputs (the domain's generator), so every run sees the same data. */
export { gaussian, mulberry32 } from '../../shared/domain/seeded-random';
