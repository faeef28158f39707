import { formatReport, type ErrorReport } from '../errors';
import type { Io } from '../io';
import { colourWanted, createStyle, type Style } from './style';
import { renderTable, type Column } from './table';

export interface OutputOptions {
  json: boolean;
  /** false with --no-color. */
  colour: boolean;
}

/**
 * Where a command's results go. `--json`: one JSON document on stdout (the documented shape), nothing else
 * there. Otherwise text for people: tables on a terminal, tab-separated lines in a pipe. Notices, warnings
 * and errors always go to stderr, so stdout stays parseable.
 */
export class Output {
  readonly json: boolean;
  readonly tty: boolean;
  readonly style: Style;
  readonly errStyle: Style;

  constructor(
    private readonly io: Io,
    options: OutputOptions,
  ) {
    this.json = options.json;
    this.tty = Boolean(io.stdout.isTTY);
    this.style = createStyle(colourWanted(io.stdout, io.env, options.colour));
    this.errStyle = createStyle(colourWanted(io.stderr, io.env, options.colour));
  }

  /** The result of a command: `value` as JSON with --json, else the text `render` makes. */
  result(value: unknown, render: () => string): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else {
      const text = render();
      if (text) this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
  }

  table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
    return renderTable(rows, columns, { tty: this.tty, width: this.io.stdout.columns || 100, style: this.style });
  }

  /** A line for people on stderr (progress, what was found, what to do next). */
  notice(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${this.errStyle.yellow('warning:')} ${text}\n`);
  }

  error(report: ErrorReport): void {
    if (this.json) {
      this.io.stderr.write(`${JSON.stringify({ error: report })}\n`);
      return;
    }
    const [first, ...rest] = formatReport(report).split('\n');
    this.io.stderr.write(`${this.errStyle.red(first ?? '')}\n${rest.map((line) => `${line}\n`).join('')}`);
  }
}
