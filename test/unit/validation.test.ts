import * as z from 'zod';
import { BadRequest } from '../../shared/errors';
import { exact, parseWith } from '../../shared/validation';
import { RegisterRequest } from '../../shared/schemas/accounts';
import { CustomerForecastQuery } from '../../shared/schemas/forecast';

function failure(fn: () => unknown): BadRequest {
  try {
    fn();
  } catch (err) {
    return err as BadRequest;
  }
  throw new Error('expected a failure');
}

describe('validation messages', () => {
  it('names the field path and the problem, and lists every problem in details', () => {
    const err = failure(() => parseWith(RegisterRequest, { email: 'not-an-email', organization: 5 }, 'body'));
    expect(err).toBeInstanceOf(BadRequest);
    expect(err.status).toBe(400);
    expect(err.message).toBe('Invalid request: email must be a valid email address');
    expect(err.extra?.details).toEqual([
      { path: 'email', message: 'must be a valid email address' },
      { path: 'organization', message: 'must be a string' },
    ]);
  });

  it('says a missing field is required', () => {
    expect(failure(() => parseWith(RegisterRequest, {}, 'body')).message).toBe('Invalid request: email is required');
  });

  it('joins nested paths with dots', () => {
    const schema = z.object({ data: z.array(z.object({ value: z.number() })) });
    expect(failure(() => parseWith(schema, { data: [{ value: 1 }, { value: 'x' }] }, 'body')).message).toBe('Invalid request: data.1.value must be a number');
  });

  it('uses the spec messages marked exact as they are', () => {
    expect(failure(() => parseWith(CustomerForecastQuery, {}, 'query')).message).toBe('Missing required parameter: customer_id');
    expect(failure(() => parseWith(z.object({ a: z.string({ error: exact('Invalid action') }) }), {}, 'body')).message).toBe('Invalid action');
  });

  it('names the maximum horizon', () => {
    expect(failure(() => parseWith(CustomerForecastQuery, { customer_id: 'c', horizon_hours: '500' }, 'query')).message).toBe(
      'Invalid request: horizon_hours must be at most 168',
    );
  });
});
