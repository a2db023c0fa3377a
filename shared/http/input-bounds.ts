/**
 * The bounds of shared/schemas/bounds.ts applied to a whole request, whatever its schema: every field named
 * `id`, `*_id` or `*_ids` holds ids, every number is 0 or of a magnitude from MIN_ABS_NONZERO_NUMBER to
 * MAX_ABS_NUMBER, and nesting stays shallow. Loose bodies (the terminal actions) reach services without a
 * field-by-field schema; this keeps them honest.
 * Iterative, so a body nested a million deep is a 400, not a stack overflow.
 */
import { BadRequest } from '../errors';
import { ID_PROBLEM, MAX_ABS_NUMBER, MAX_BODY_DEPTH, MIN_ABS_NONZERO_NUMBER, isIdentifier } from '../schemas/bounds';

const isIdField = (name: string) => name === 'id' || name.endsWith('_id');
const isIdListField = (name: string) => name.endsWith('_ids');

const invalid = (path: string, problem: string) => new BadRequest(`Invalid request: ${path} ${problem}`, { details: [{ path, message: problem }] });

/** Throws a 400 naming the first field outside the bounds; `root` names the input (body, query, path). */
export function checkInputBounds(input: unknown, root: string): void {
  const stack: { value: unknown; path: string; depth: number; idField: boolean }[] = [{ value: input, path: '', depth: 0, idField: false }];
  while (stack.length) {
    const { value, path, depth, idField } = stack.pop()!;
    const where = path || root;
    if (typeof value === 'number') {
      const magnitude = Math.abs(value);
      if (!Number.isFinite(value) || magnitude > MAX_ABS_NUMBER || (magnitude > 0 && magnitude < MIN_ABS_NONZERO_NUMBER)) {
        throw invalid(where, `must be 0 or a finite number of magnitude ${MIN_ABS_NONZERO_NUMBER} to ${MAX_ABS_NUMBER}`);
      }
    } else if (typeof value === 'string') {
      // A blank id is left to the handler: the spec words its own "Missing required ..." message for it.
      if (idField && value.trim() !== '' && !isIdentifier(value)) throw invalid(where, ID_PROBLEM);
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_BODY_DEPTH) throw invalid(where, `is nested more than ${MAX_BODY_DEPTH} levels deep`);
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
      for (const [key, child] of entries) {
        const childIsId = Array.isArray(value) ? idField : isIdField(key) || isIdListField(key);
        stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1, idField: childIsId });
      }
    }
  }
}
