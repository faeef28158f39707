import { MAX_KEPT_ROW_BYTES, MAX_ROW_MESSAGE_BYTES } from '../../domain/list-import';
import { boundedMessage, KeptRowMessages } from './kept-row-messages';

describe('kept row messages', () => {
  it('cuts a long message on a character boundary, with an ellipsis', () => {
    const cut = boundedMessage(`title '${'東'.repeat(30_000)}' is not valid`);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_ROW_MESSAGE_BYTES);
    expect(cut).toMatch(/^title '東+…$/);
    expect(boundedMessage('short')).toBe('short');
  });

  it('keeps rows until the byte budget is spent, counting what the job already holds', () => {
    const long = (row: number) => ({ row, message: 'x'.repeat(10_000) });
    const kept = new KeptRowMessages({ errors: [{ row: 1, message: 'x'.repeat(MAX_ROW_MESSAGE_BYTES) }] });
    const batch = { errors: Array.from({ length: 500 }, (_, i) => long(i + 2)), warnings: [] };
    const first = kept.fit(batch);
    expect(first.errors.length).toBe(Math.floor(MAX_KEPT_ROW_BYTES / (MAX_ROW_MESSAGE_BYTES + 40)) - 1);
    // fit alone stores nothing: a retried batch gets the same rows.
    expect(kept.fit(batch)).toEqual(first);
    kept.add(first);
    expect(kept.fit(batch).errors).toEqual([]);
  });
});
