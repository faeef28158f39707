import type { AssignableRole } from '@mt/api-client';
import { Argument, type Command } from 'commander';
import { ASSIGNABLE_ROLES } from '../api-values';
import { isEntryId } from '../arguments';
import { withExamples, type CommandContext } from '../command-context';
import { usageError } from '../errors';

const MODERATE =
  'Moderators and admins only: a token needs the catalog:moderate scope (mt login --scopes catalog:write,list:read,list:write,profile:read,catalog:moderate), which only a moderator or admin can get.';

const requireEntryId = (id: string, what: string): string => {
  if (!isEntryId(id)) throw usageError(`${what}: not an entry id (24 hexadecimal characters): ${id}`);
  return id.toLowerCase();
};

export function registerModeration(program: Command, ctx: CommandContext): void {
  const catalog = program
    .command('catalog')
    .summary('correct the shared catalog (moderators): rm, merge')
    .description(`Correct the shared catalog. ${MODERATE}`);
  withExamples(catalog, 'mt catalog rm movies 65f1c0ffee0000000000abcd', 'mt catalog merge movies 65f1c0ffee0000000000abcd --into 65f1c0ffee0000000000dcba');

  withExamples(
    catalog
      .command('rm')
      .summary('remove a catalog entry and every list entry pointing at it')
      .description(`Remove a catalog entry, and every list entry (of any user) that points at it: each user sees the removal in their change feed. ${MODERATE}`)
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<id>', 'the catalog entry id'),
    'mt catalog rm movies 65f1c0ffee0000000000abcd',
    'mt catalog rm books 65f1c0ffee0000000000abcd --json | jq .list_entries_removed',
  ).action(async (category: string, id: string, _options: object, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const removal = await session.api().deleteEntry(category, requireEntryId(id, '<id>'));
    session.output.result(removal, () => `Removed ${id} from the ${category} catalog, and ${removal.list_entries_removed} list ${removal.list_entries_removed === 1 ? 'entry' : 'entries'} with it.`);
  });

  withExamples(
    catalog
      .command('merge')
      .summary('fold a duplicate catalog entry into another')
      .description(
        'Fold a duplicate into another entry: list entries move to it (a user who has both keeps the one changed last), external ids are combined (a conflict is exit 5 and changes nothing), ' +
          `and the duplicate's id leads to the survivor from then on. ${MODERATE}`,
      )
      .argument('<category>', 'movies, tvshows, books...')
      .argument('<id>', 'the duplicate (it disappears)')
      .requiredOption('--into <id>', 'the entry that stays'),
    'mt catalog merge movies 65f1c0ffee0000000000abcd --into 65f1c0ffee0000000000dcba',
  ).action(async (category: string, id: string, options: { into: string }, command: Command) => {
    const session = ctx.session(command);
    session.requireToken();
    const survivor = await session.api().mergeEntry(category, requireEntryId(id, '<id>'), requireEntryId(options.into, '--into'));
    session.output.result(survivor, () => `Merged ${id} into "${survivor.title}"${survivor.year === null ? '' : ` (${survivor.year})`} ${session.output.style.dim(survivor.id)}.`);
  });

  withExamples(
    program
      .command('role')
      .summary("grant or remove a user's moderator role (admins)")
      .description(
        'Grant (moderator) or remove (user) the moderator role of a user, by the user\'s id (the API looks users up by id only). Admins only; admins themselves are named by the deployment. ' +
          'A granted role takes effect at the user\'s next login; a removed one at once. Needs the account scope: with a stored token that lacks it, your password is asked for (or read with --password-stdin).',
      )
      .argument('<user-id>', 'the user\'s id (24 hexadecimal characters, as mt whoami --json shows it)')
      .addArgument(new Argument('<role>', 'moderator or user').choices(ASSIGNABLE_ROLES))
      .option('--password-stdin', 'read the password from standard input'),
    'mt role 665f1f0c2a4b7e0012345678 moderator',
    'mt role 665f1f0c2a4b7e0012345678 user --json | jq -r .role',
  ).action(async (userId: string, role: AssignableRole, options: { passwordStdin?: boolean }, command: Command) => {
    const session = ctx.session(command);
    if (!isEntryId(userId)) throw usageError(`not a user id (24 hexadecimal characters): ${userId}`);
    const api = await session.accountApi({ passwordStdin: options.passwordStdin, why: 'changing a role' });
    const user = await api.setUserRole(userId.toLowerCase(), role);
    session.output.result(user, () => `${user.username} is now ${user.role === 'moderator' ? 'a moderator' : `a ${user.role}`}.`);
  });
}
