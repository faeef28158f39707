import { createStyle } from './style';
import { renderTable, type Column } from './table';

interface Row {
  id: string;
  title: string;
}
const rows: Row[] = [
  { id: 'a1', title: 'The Lord of the Rings: The Fellowship of the Ring' },
  { id: 'b22', title: 'Heat' },
];
const columns: Column<Row>[] = [
  { header: 'ID', value: (row) => row.id },
  { header: 'TITLE', value: (row) => row.title, shrink: true },
  { header: 'N', value: () => '1' },
];

describe('renderTable', () => {
  it('aligns columns under a header on a terminal', () => {
    expect(renderTable(rows, columns, { tty: true, width: 100, style: createStyle(false) })).toBe(
      'ID   TITLE                                              N\n' +
        'a1   The Lord of the Rings: The Fellowship of the Ring  1\n' +
        'b22  Heat                                               1\n',
    );
  });

  it('cuts the shrinkable column to the terminal width', () => {
    const text = renderTable(rows, columns, { tty: true, width: 30, style: createStyle(false) });
    expect(text.split('\n').map((line) => line.length)).toEqual([30, 30, 30, 0]);
    expect(text).toContain('a1   The Lord of the Rings…  1\n');
  });

  it('writes tab-separated lines without a header or cuts in a pipe, with tabs in values replaced', () => {
    const text = renderTable([{ id: 'x', title: 'a\tb\nc' }], columns, { tty: false, width: 10, style: createStyle(true) });
    expect(text).toBe('x\ta b c\t1\n');
  });

  it('colours only when the style is on', () => {
    expect(renderTable(rows.slice(1), columns, { tty: true, width: 80, style: createStyle(true) })).toContain('\u001b[1mID\u001b[22m');
  });
});
