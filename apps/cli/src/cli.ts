import { CommanderError } from 'commander';
import { createContext } from './command-context';
import { COMPLETE_COMMAND, printCompletions } from './commands/completion';
import { reportOf } from './errors';
import { explainUnknownCategory } from './unknown-category';
import { EXIT, type ExitCode } from './exit-codes';
import type { Io } from './io';
import { Output } from './output/output';
import { buildProgram } from './program';

/** Runs `mt <argv>` and resolves to its exit code; every error ends here as a report on stderr. */
export async function run(argv: string[], io: Io): Promise<ExitCode> {
  const exitCode: { value: ExitCode } = { value: EXIT.ok };
  const context = createContext(io, exitCode);
  const program = buildProgram(context);
  try {
    if (argv[0] === COMPLETE_COMMAND) {
      await printCompletions(program, context, argv.slice(1));
      return EXIT.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode.value;
  } catch (error) {
    // Commander has already printed its message (unknown option, missing argument) or the help/version.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const report = reportOf(await explainUnknownCategory(error, context, program));
    new Output(io, { json: argv.includes('--json'), colour: !argv.includes('--no-color') }).error(report);
    return report.exit_code;
  }
}
