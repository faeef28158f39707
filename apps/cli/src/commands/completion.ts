import { Argument, type Command, type Option } from 'commander';
import { SHIPPED_CATEGORIES } from '../api-values';
import { withExamples, type CommandContext } from '../command-context';
import { Session } from '../session';

/** The hidden command the shell scripts call: `mt __complete <words so far...> <current word>`. */
export const COMPLETE_COMMAND = '__complete';


const BASH = `# bash completion for mt. Load it with:  source <(mt completion bash)
# or install it:  mt completion bash > ~/.local/share/bash-completion/completions/mt
_mt_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(mt ${COMPLETE_COMMAND} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _mt_complete mt
`;

const ZSH = `#compdef mt
# zsh completion for mt. Load it with:  source <(mt completion zsh)   (after compinit)
# or install it as _mt in a directory of $fpath:  mt completion zsh > "\${fpath[1]}/_mt"
_mt() {
  local -a candidates
  candidates=("\${(@f)$(mt ${COMPLETE_COMMAND} "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -- "\${candidates[@]}"
}
if [ "\${funcstack[1]}" = "_mt" ]; then
  _mt "$@"
else
  compdef _mt mt
fi
`;

export function registerCompletion(program: Command, ctx: CommandContext): void {
  withExamples(
    program
      .command('completion')
      .summary('shell completion script for bash or zsh')
      .description('Print the shell completion script (commands, options, their values and the server\'s categories).')
      .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh'])),
    'source <(mt completion bash)        # in ~/.bashrc',
    'mt completion zsh > "${fpath[1]}/_mt"',
  ).action((shell: 'bash' | 'zsh') => {
    ctx.io.stdout.write(shell === 'bash' ? BASH : ZSH);
  });
}

/**
 * `mt __complete <words...>`: the candidates for the last word, one a line. Handled before commander parses
 * anything, since the words are a command line being typed (options included), not options of this call.
 */
export async function printCompletions(program: Command, ctx: CommandContext, words: string[]): Promise<void> {
  const urlAt = words.indexOf('--url');
  const url = urlAt >= 0 && urlAt < words.length - 2 ? words[urlAt + 1] : undefined;
  const candidates = await complete(program, words.length ? words : [''], () => serverCategories(ctx, url));
  if (candidates.length) ctx.io.stdout.write(`${candidates.join('\n')}\n`);
}

async function serverCategories(ctx: CommandContext, url: string | undefined): Promise<string[]> {
  try {
    const session = new Session(ctx.io, { url, color: false });
    const categories = await Promise.race([
      session.api(null).categories(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('slow')), 1500).unref()),
    ]);
    return categories.map((category) => category.id);
  } catch {
    return [...SHIPPED_CATEGORIES];
  }
}

const takesValue = (option: Option) => option.required || option.optional;
const visibleCommands = (command: Command) => command.commands.filter((sub) => !sub.name().startsWith('__'));

/** What may come at the last of `words`, given the words before it; only candidates starting with it. */
export async function complete(program: Command, words: string[], categories: () => Promise<string[]>): Promise<string[]> {
  const current = words[words.length - 1] ?? '';
  let command = program;
  let positionals = 0;
  let pendingOption: Option | undefined;
  const optionsOf = (cmd: Command) => [...cmd.options, ...(cmd === program ? [] : program.options)];
  for (const word of words.slice(0, -1)) {
    if (pendingOption) {
      pendingOption = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const option = optionsOf(command).find((candidate) => candidate.long === word || candidate.short === word);
      if (option && takesValue(option) && !word.includes('=')) pendingOption = option;
      continue;
    }
    const sub = positionals === 0 ? visibleCommands(command).find((candidate) => candidate.name() === word || candidate.aliases().includes(word)) : undefined;
    if (sub) command = sub;
    else positionals += 1;
  }
  const matching = (values: readonly string[]) => values.filter((value) => value.startsWith(current));
  if (pendingOption) return matching(pendingOption.argChoices ?? []);
  if (current.startsWith('-')) {
    return matching(optionsOf(command).flatMap((option) => (option.hidden || !option.long ? [] : [option.long])).concat('--help'));
  }
  const subcommands = positionals === 0 ? visibleCommands(command) : [];
  if (subcommands.length) return matching(subcommands.map((sub) => sub.name()));
  const argument = command.registeredArguments[Math.min(positionals, command.registeredArguments.length - 1)];
  if (!argument || (positionals >= command.registeredArguments.length && !argument.variadic)) return [];
  if (argument.name() === 'category') return matching(await categories());
  if (argument.argChoices) return matching(argument.argChoices);
  return [];
}

