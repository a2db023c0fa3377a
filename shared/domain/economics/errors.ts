/**
 * Why a project's inputs cannot be evaluated although each field has the right type: a value out of its
 * range, or `annual_revenue` and `revenue_streams` that disagree (ARCHITECTURE 9, "Project economics
 * inputs": 400). `field` is the dotted path of the offending field, and the message starts with it.
 */
export class EconomicsInputError extends Error {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field} ${detail}`);
    this.name = 'EconomicsInputError';
  }
}
