/** The local runtime's limit-lifting environment, for tests (the benches import it from shared/local too). */
export { UNLIMITED_ENV } from '../../shared/local/unlimited-env';
