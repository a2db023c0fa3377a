/**
 * Named errors thrown by services and repositories. The error middleware maps each to its status
 * and to the body shape of the route's group (ARCHITECTURE 4); messages are the spec's where it lists one.
 */

export abstract class ServiceError extends Error {
  abstract readonly status: number;
  /** Extra top-level fields of the simple body (for example `details` of a validation failure). */
  readonly extra?: Record<string, unknown>;
  constructor(message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.extra = extra;
  }
}

export class BadRequest extends ServiceError {
  readonly status = 400;
}
export class Unauthorized extends ServiceError {
  readonly status = 401;
  constructor() {
    super('Unauthorized');
  }
}
export class NotFound extends ServiceError {
  readonly status = 404;
}
export class Conflict extends ServiceError {
  readonly status = 409;
}
/** A valid request the service cannot carry out as asked (a solver that stops short of an optimum on extreme inputs). */
export class Unprocessable extends ServiceError {
  readonly status = 422;
}
/** A record the store cannot hold (DynamoDB's 400 KB item limit), from text a client sent: its fields are bounded where known. */
export class RecordTooLarge extends ServiceError {
  readonly status = 413;
  constructor() {
    super('The record is larger than the store allows (400 KB): send shorter text');
  }
}
export class PayloadTooLarge extends ServiceError {
  readonly status = 413;
  constructor() {
    super('Request body too large');
  }
}
export class RateLimited extends ServiceError {
  readonly status = 429;
  /** `message`: a limit other than the request rate says which (registrations, failed keys). */
  constructor(readonly retryAfterSeconds: number, message = 'Rate limit exceeded') {
    super(message);
  }
}

/** Errors with the structured body: {error: {code, message, details}, upgrade_url, support_contact}. */
export abstract class StructuredError extends ServiceError {
  abstract readonly code: string;
  constructor(message: string, readonly details: Record<string, unknown>) {
    super(message);
  }
}

export class TierLimitExceeded extends StructuredError {
  readonly status = 429;
  readonly code = 'TIER_LIMIT_EXCEEDED';
}

/** A request larger than the tier allows in one go (rows per cleaning): 413 with the tier's structured details. */
export class TierRowLimitExceeded extends StructuredError {
  readonly status = 413;
  readonly code = 'TIER_LIMIT_EXCEEDED';
}

export class TierRequired extends StructuredError {
  readonly status = 403;
  readonly code = 'TIER_REQUIRED';
}
