/** POST /api/project-economics: the domain's evaluation at its documented precision, its input errors answered as 400s. */
import { EconomicsInputError, projectEconomics, roundEconomics } from '../../domain/economics';
import { BadRequest } from '../../errors';
import type { ProjectEconomicsRequest } from '../../schemas/economics';
import type { ProjectEconomicsResponse } from '../../schemas/responses';

export function evaluateProject(body: ProjectEconomicsRequest): ProjectEconomicsResponse {
  try {
    return { status: 'success', ...roundEconomics(projectEconomics(body)) };
  } catch (err) {
    if (err instanceof EconomicsInputError) throw new BadRequest(`Invalid request: ${err.message}`);
    throw err;
  }
}
