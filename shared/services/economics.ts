/** POST /api/project-economics: the domain's evaluation, its input errors answered as 400s. */
import { EconomicsInputError, projectEconomics } from '../domain/economics';
import { BadRequest } from '../errors';
import type { ProjectEconomicsRequest } from '../schemas/economics';

export function evaluateProject(body: ProjectEconomicsRequest) {
  try {
    return { status: 'success', ...projectEconomics(body) };
  } catch (err) {
    if (err instanceof EconomicsInputError) throw new BadRequest(`Invalid request: ${err.message}`);
    throw err;
  }
}
