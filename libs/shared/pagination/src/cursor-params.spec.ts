import { z } from 'zod';
import { cursorParam, refusePageWithCursor } from './cursor-params';

const schema = z.strictObject({ page: z.string().optional(), cursor: cursorParam() }).superRefine(refusePageWithCursor);

describe('cursor query parameters', () => {
  it('accepts page or cursor alone, including an empty cursor', () => {
    expect(schema.safeParse({ page: '2' }).success).toBe(true);
    expect(schema.safeParse({ cursor: '' }).success).toBe(true);
    expect(schema.safeParse({ cursor: 'start' }).success).toBe(true);
  });

  it('refuses page and cursor together', () => {
    const result = schema.safeParse({ page: '1', cursor: 'start' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['cursor']);
  });

  it('refuses an over-long cursor', () => {
    expect(schema.safeParse({ cursor: 'a'.repeat(5000) }).success).toBe(false);
  });
});
