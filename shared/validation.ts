/**
 * zod failures -> 400 "Invalid request: <field path> <problem>" with all problems in `details`
 * (ARCHITECTURE 4). Messages the spec lists word for word are marked with `exact()` and used as they are.
 */
import type * as z from 'zod';
import { BadRequest } from './errors';

const EXACT_MESSAGES = new Set<string>();

/** Marks a schema error message as one of the spec's exact messages. */
export function exact(message: string): string {
  EXACT_MESSAGES.add(message);
  return message;
}

type Issue = z.core.$ZodIssue;

function problem(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return (issue as { input?: unknown }).input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'must be a valid email address';
      // A pattern's own message says what is allowed; zod's default ("Invalid string: must match pattern ...") does not.
      if (issue.format === 'regex') return issue.message.startsWith('Invalid string') ? 'is not in the expected format' : issue.message;
      return `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' ? `must be at least ${issue.minimum} character(s)` : issue.origin === 'array' ? `must have at least ${issue.minimum} item(s)` : `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${issue.maximum} character(s)` : issue.origin === 'array' ? `must have at most ${issue.maximum} item(s)` : `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'unrecognized_keys':
      return `has unknown field(s) ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

const pathOf = (issue: Issue, root: string) => (issue.path.length ? issue.path.map(String).join('.') : root);

/** The BadRequest for a failed parse; `root` names the whole input (body, query) when the path is empty. */
export function validationError(error: z.ZodError, root: string): BadRequest {
  const details = error.issues.map((i) => ({ path: pathOf(i, root), message: EXACT_MESSAGES.has(i.message) ? i.message : problem(i) }));
  const first = error.issues[0];
  const message = EXACT_MESSAGES.has(first.message) ? first.message : `Invalid request: ${details[0].path} ${details[0].message}`;
  return new BadRequest(message, { details });
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, root: string): z.infer<S> {
  const out = schema.safeParse(input, { reportInput: true }); // the input tells "missing" from "wrong type"
  if (!out.success) throw validationError(out.error, root);
  return out.data;
}

/**
 * The spec's missing-input messages: "Missing required field: <name>" (asset operations) and
 * "Missing required parameter: <name>" (uploads, GET /forecast). The first missing name is reported.
 */
export function requireFields(body: Record<string, unknown>, fields: readonly string[], noun: 'field' | 'parameter' = 'field'): void {
  const missing = fields.find((f) => body[f] === undefined || body[f] === null || (typeof body[f] === 'string' && body[f].trim() === ''));
  if (missing) throw new BadRequest(`Missing required ${noun}: ${missing}`);
}
