import { visibleLength, type Style } from './style';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Colours a cell on a terminal (after it was cut to width). */
  style?: (text: string, row: Row) => string;
  /** This column gives up width first when the table is wider than the terminal. */
  shrink?: boolean;
}

const cut = (text: string, width: number): string => {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
};
const pad = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - visibleLength(text)));
/** A cell of a tab-separated line: tabs and newlines inside a value would break the columns. */
const clean = (text: string): string => text.replace(/[\t\r\n]+/g, ' ');

/**
 * A table for a terminal: a header, aligned columns, the widest shrinkable column cut to fit `width`.
 * For a pipe (not a terminal): tab-separated values, no header, nothing cut, no colour, like `gh`.
 */
export function renderTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[], options: { tty: boolean; width: number; style: Style }): string {
  const cells = rows.map((row) => columns.map((column) => clean(column.value(row))));
  if (!options.tty) return cells.map((line) => `${line.join('\t')}\n`).join('');
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => [...(line[index] ?? '')].length)));
  const gap = 2;
  let overflow = widths.reduce((sum, width) => sum + width, 0) + gap * (columns.length - 1) - options.width;
  for (const index of columns.map((_, i) => i).filter((i) => columns[i]?.shrink)) {
    if (overflow <= 0) break;
    const floor = Math.max(8, columns[index]?.header.length ?? 0);
    const take = Math.min(overflow, Math.max(0, (widths[index] ?? 0) - floor));
    widths[index] = (widths[index] ?? 0) - take;
    overflow -= take;
  }
  const line = (values: string[], styleCell: (text: string, index: number) => string) =>
    values
      .map((value, index) => {
        const text = styleCell(cut(value, widths[index] ?? 0), index);
        return index === values.length - 1 ? text : pad(text, widths[index] ?? 0);
      })
      .join(' '.repeat(gap))
      .trimEnd();
  const header = line(columns.map((column) => column.header), (text) => options.style.bold(text));
  const body = cells.map((values, rowIndex) =>
    line(values, (text, index) => {
      const column = columns[index];
      const row = rows[rowIndex] as Row;
      return column?.style ? column.style(text, row) : text;
    }),
  );
  return `${[header, ...body].join('\n')}\n`;
}
