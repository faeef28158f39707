import { duplicateKeyFields, isDuplicateKeyError } from './mongo-errors';

describe('duplicate-key errors', () => {
  it('recognises E11000 and nothing else', () => {
    expect(isDuplicateKeyError({ code: 11000 })).toBe(true);
    expect(isDuplicateKeyError({ code: 112 })).toBe(false);
    expect(isDuplicateKeyError(new Error('E11000'))).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });

  it('names the fields of the broken unique index from the key pattern, else from the message', () => {
    expect(duplicateKeyFields({ code: 11000, keyPattern: { username: 1 } })).toEqual(['username']);
    expect(duplicateKeyFields({ code: 11000, keyValue: { email: 'a@b.c' } })).toEqual(['email']);
    expect(duplicateKeyFields({ code: 11000, message: 'E11000 duplicate key error index: username_1 dup key' })).toEqual(['username_1']);
    expect(duplicateKeyFields({ code: 112, keyPattern: { username: 1 } })).toEqual([]);
  });
});
