import { describe, expect, it } from 'vitest';
import { HttpError } from '../../api/call.ts';
import { urlRefusalOf } from './refusals.ts';

const refused = (body: Record<string, unknown>) => new HttpError(400, { error: 'invalid_request', message: 'url …', ...body }, new Headers());

describe('urlRefusalOf', () => {
  it('reads the refusal of the url field', () => {
    expect(urlRefusalOf(refused({ field: 'url', refusal: 'private_address' }))).toBe('private_address');
    expect(urlRefusalOf(refused({ field: 'url', refusal: 'scheme' }))).toBe('scheme');
  });

  it('is null for another field, an unknown code or another failure', () => {
    expect(urlRefusalOf(refused({ field: 'events', refusal: 'scheme' }))).toBeNull();
    expect(urlRefusalOf(refused({ field: 'url', refusal: 'something_new' }))).toBeNull();
    expect(urlRefusalOf(refused({ field: 'url' }))).toBeNull();
    expect(urlRefusalOf(new Error('x'))).toBeNull();
  });
});
