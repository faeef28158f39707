/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with = + - @ (or their full-width forms), or
 * with a tab or CR, as a formula. A cell is not only what our `,` writer delimits: a reader set to `;` (the
 * default of many locales) starts a cell after every `;` of the text, and, since the quotes of a `,` file are
 * then in mid-cell, after every line break too. So every place where a reader with either separator can
 * start a cell gets a leading `'` when the text there could start a formula (after spaces or quotes, which
 * some readers drop): spreadsheets show such a cell as text, and the `csv` import removes the `'` again.
 */
const FORMULA = '=+\\-@\uFF1D\uFF0B\uFF0D\uFF20';
/** Spaces and quotes a reader may skip before the formula character; never a separator, so guards do not overlap. */
const LEAD = '[^\\S\\r\\n]|"';
const DANGER = `(?:[\\t\\r]|(?:${LEAD})*[${FORMULA}])`;
/** A `'` is added where the text (after any `'` it already has, so the import can tell them apart) is dangerous. */
const NEEDS_GUARD = new RegExp(`'*${DANGER}`, 'y');
const GUARDED = new RegExp(`'+${DANGER}`, 'y');

const matchesAt = (pattern: RegExp, text: string, at: number): boolean => {
  pattern.lastIndex = at;
  return pattern.test(text);
};

/** Where a reader with `,` or `;` as separator may start a cell: the start, after `;`, after a line break. */
function cellStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === ';' || char === '\n' || (char === '\r' && text.charAt(i + 1) !== '\n')) starts.push(i + 1);
  }
  return starts;
}

export function guardFormula(text: string): string {
  let guarded = '';
  let from = 0;
  for (const start of cellStarts(text)) {
    if (!matchesAt(NEEDS_GUARD, text, start)) continue;
    guarded += `${text.slice(from, start)}'`;
    from = start;
  }
  return guarded + text.slice(from);
}

export function unguardFormula(cell: string): string {
  let text = '';
  let from = 0;
  for (const start of cellStarts(cell)) {
    if (!matchesAt(GUARDED, cell, start)) continue;
    text += cell.slice(from, start);
    from = start + 1;
  }
  return text + cell.slice(from);
}
