/** The per-action bodies of /terminal/*: the spec's messages (SPEC "Error messages per endpoint") come from the schemas. */
import type * as z from 'zod';
import { BadRequest } from '../../shared/errors';
import { parseWith } from '../../shared/validation';
import {
  AssetsRequest,
  BomRequest,
  DetectRequest,
  OrderRequest,
  ScheduleRequest,
  TerminalCustomerFilter,
  TerminalCustomerRequest,
  TrackRequest,
} from '../../shared/schemas/terminal';

const messageOf = (schema: z.ZodType, body: unknown): string => {
  try {
    parseWith(schema, body, 'body');
  } catch (err) {
    if (err instanceof BadRequest) return err.message;
    throw err;
  }
  return 'valid';
};

const asset = { asset_id: 'inv-1', name: 'Inverter 1', type: 'inverter', capacity_kw: 5, location: 'Berlin' };

describe('terminal action bodies', () => {
  it.each([
    ['no action', AssetsRequest, {}],
    ['a number as action', ScheduleRequest, { action: 5, asset_id: 'a' }],
    ['an action of another route', BomRequest, { action: 'create', asset_id: 'a' }],
    ['an unknown action', OrderRequest, { action: 'bogus_action', asset_id: 'a' }],
    ['an action in another case', TrackRequest, { action: 'LIST', order_id: 'o' }],
  ])('answers "Invalid action" for %s', (_case, schema, body) => {
    expect(messageOf(schema, body)).toBe('Invalid action');
  });

  it.each([
    ['get without asset_id', AssetsRequest, { action: 'get' }, 'Missing required field: asset_id'],
    ['add without asset_id', AssetsRequest, { ...asset, action: 'add', asset_id: undefined }, 'Missing required field: asset_id'],
    ['add without name', AssetsRequest, { ...asset, action: 'add', name: undefined }, 'Missing required field: name'],
    ['add with a blank location', AssetsRequest, { ...asset, action: 'add', location: '  ' }, 'Missing required field: location'],
    ['add with a null capacity', AssetsRequest, { ...asset, action: 'add', capacity_kw: null }, 'Missing required field: capacity_kw'],
    ['add with a name of the wrong type and no type', AssetsRequest, { ...asset, action: 'add', name: 5, type: undefined }, 'Missing required field: type'],
    ['schedule list without asset_id', ScheduleRequest, { action: 'list' }, 'Missing required field: asset_id'],
    ['schedule create with a blank asset_id', ScheduleRequest, { action: 'create', asset_id: ' ' }, 'Missing required field: asset_id'],
    ['detect run without asset_id', DetectRequest, { action: 'run' }, 'Missing required field: asset_id'],
    ['order update without order_id', OrderRequest, { action: 'update', status: 'completed' }, 'Missing required field: order_id'],
    ['order update with a number as status', OrderRequest, { action: 'update', order_id: 'o', status: 3 }, 'Missing required field: status'],
    ['track list with a null order_id', TrackRequest, { action: 'list', order_id: null }, 'Missing required field: order_id'],
    ['forecast results without customer_id', TerminalCustomerRequest, {}, 'Missing required field: customer_id'],
    ['forecast results with a blank customer_id', TerminalCustomerRequest, { customer_id: '   ' }, 'Missing required field: customer_id'],
  ])('answers the missing field for %s', (_case, schema, body, message) => {
    expect(messageOf(schema, body)).toBe(message);
  });

  it('checks the type of an id before its presence, as the handlers did', () => {
    expect(messageOf(AssetsRequest, { action: 'list', asset_id: 5 })).toBe('Invalid request: asset_id must be a string');
    expect(messageOf(TerminalCustomerRequest, { customer_id: null })).toBe('Invalid request: customer_id must be a string');
    expect(messageOf(ScheduleRequest, { action: 'list', asset_id: 'a'.repeat(129) })).toBe('Invalid request: asset_id must be at most 128 character(s)');
  });

  it('leaves the fields a service checks after its lookup to the service (404 comes before their 400)', () => {
    expect(messageOf(ScheduleRequest, { action: 'create', asset_id: 'unknown-asset' })).toBe('valid');
    expect(messageOf(BomRequest, { action: 'generate', asset_id: 'unknown-asset' })).toBe('valid');
    expect(messageOf(TrackRequest, { action: 'subscribe', order_id: 'unknown-order' })).toBe('valid');
  });

  it('gives the services trimmed ids and keeps the fields it does not name', () => {
    expect(parseWith(OrderRequest, { action: 'update', order_id: ' ord_1 ', status: ' completed ', completion_notes: 'done' }, 'body')).toEqual({
      action: 'update',
      order_id: 'ord_1',
      status: 'completed',
      completion_notes: 'done',
    });
    expect(parseWith(TrackRequest, { action: 'list', order_id: 42 }, 'body')).toEqual({ action: 'list', order_id: '42' });
    expect(parseWith(TerminalCustomerRequest, { customer_id: ' c-1 ' }, 'body')).toEqual({ customer_id: 'c-1' });
    expect(parseWith(TerminalCustomerFilter, { customer_id: '  ' }, 'body')).toEqual({ customer_id: undefined });
    expect(parseWith(AssetsRequest, { ...asset, action: 'add', extra: 1 }, 'body')).toEqual({ ...asset, action: 'add' });
  });
});
