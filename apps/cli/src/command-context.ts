import type { Command } from 'commander';
import type { ExitCode } from './exit-codes';
import type { Io } from './io';
import { Session, type GlobalOptions } from './session';

/** What every command module gets: the process, a session built from the options, and a way to set the exit code. */
export interface CommandContext {
  io: Io;
  session(command: Command): Session;
  /** The exit code once the command is done (a result with a problem, e.g. ids not on the list). */
  setExitCode(code: ExitCode): void;
}

export function createContext(io: Io, exitCode: { value: ExitCode }): CommandContext {
  return {
    io,
    session: (command) => new Session(io, command.optsWithGlobals<GlobalOptions>()),
    setExitCode: (code) => {
      exitCode.value = code;
    },
  };
}

/** `--help` of every command ends with examples. */
export function withExamples(command: Command, ...examples: string[]): Command {
  return command.addHelpText('after', `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
}
