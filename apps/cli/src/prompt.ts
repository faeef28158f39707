import { createInterface } from 'node:readline';
import { CliError, usageError } from './errors';
import { EXIT } from './exit-codes';
import type { Io } from './io';

export const canPrompt = (io: Io): boolean => Boolean(io.stdin.isTTY) && typeof io.stdin.setRawMode === 'function';

const noTerminal = (what: string) =>
  usageError(`no terminal to ask for ${what} on`, 'pass --username and --password-stdin (e.g. `printf %s "$PASSWORD" | mt login --username alice --password-stdin`)');

/** A line typed on the terminal, shown as it is typed (a username). The prompt goes to stderr. */
export async function promptLine(io: Io, question: string): Promise<string> {
  if (!canPrompt(io)) throw noTerminal(question.replace(/[:\s]+$/, '').toLowerCase());
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.once('SIGINT', () => reject(new CliError('interrupted', EXIT.interrupted)));
      rl.question(question, (answer) => resolve(answer.trim()));
    });
  } finally {
    rl.close();
  }
}

/**
 * A secret typed on the terminal without echo: the terminal is put in raw mode BEFORE the prompt is shown, so
 * nothing typed after the prompt can be echoed. Backspace edits, Ctrl-C / Ctrl-D abort.
 */
export async function promptSecret(io: Io, question: string): Promise<string> {
  if (!canPrompt(io)) throw noTerminal('a password');
  const stdin = io.stdin;
  stdin.setRawMode(true);
  io.stderr.write(question);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let secret = '';
      const onData = (chunk: Buffer | string) => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n') {
            stdin.off('data', onData);
            resolve(secret);
            return;
          }
          if (char === '\u0003' || (char === '\u0004' && secret === '')) {
            stdin.off('data', onData);
            reject(new CliError('interrupted', EXIT.interrupted));
            return;
          }
          if (char === '\u007f' || char === '\b') secret = [...secret].slice(0, -1).join('');
          else if (char >= ' ') secret += char;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    io.stderr.write('\n');
  }
}
