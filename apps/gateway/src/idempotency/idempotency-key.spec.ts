import { isAppError } from '@mt/errors';
import { idempotencyKeyOf } from './idempotency-key';

const rejection = (header: string | string[]) => {
  try {
    idempotencyKeyOf(header);
  } catch (error) {
    return isAppError(error) ? { status: error.status, details: error.details } : error;
  }
  return undefined;
};

describe('idempotencyKeyOf', () => {
  it('has no key without the header', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it('takes 1–255 visible ASCII characters as they are', () => {
    expect(idempotencyKeyOf('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(idempotencyKeyOf('a')).toBe('a');
    expect(idempotencyKeyOf('~'.repeat(255))).toBe('~'.repeat(255));
  });

  it('reads the draft’s Structured Field string form as the same key', () => {
    expect(idempotencyKeyOf('"8e03978e"')).toBe('8e03978e');
  });

  it.each([[''], ['""'], ['k'.repeat(256)], ['two words'], ['tab\tkey'], ['clé'], [['a', 'b']]])(
    'rejects %j with a 400 naming the header',
    (header) => {
      expect(rejection(header)).toEqual({
        status: 400,
        details: [{ path: 'Idempotency-Key', message: expect.any(String) }],
      });
    },
  );
});
