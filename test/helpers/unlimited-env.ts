/** The local runtime's limit-lifting environment, for tests (the benches import it from local/ too). */
export { UNLIMITED_ENV } from '../../local/unlimited-env';
