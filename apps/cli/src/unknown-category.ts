import { ApiError } from '@mt/api-client';
import type { Command } from 'commander';
import type { CommandContext } from './command-context';
import { CliError } from './errors';
import { EXIT } from './exit-codes';

/** The gateway's answer for a path no service routes: `/api/v1/<segment>…` names the segment asked for. */
const NO_ROUTE = /^no route for \/api\/v1\/([^/?]+)/;

/**
 * `mt search film x`: the gateway only knows no route for /api/v1/film. When the segment is not a live
 * category, say so and name the categories there are (one more request, made only on this error).
 */
export async function explainUnknownCategory(error: unknown, context: CommandContext, program: Command): Promise<unknown> {
  if (!(error instanceof ApiError) || error.status !== 404) return error;
  const segment = NO_ROUTE.exec(error.message)?.[1];
  if (!segment) return error;
  try {
    const categories = await context.session(program).api().categories();
    if (categories.some((category) => category.id === segment)) return error;
    const ids = categories.map((category) => category.id);
    return new CliError(
      `unknown category '${segment}'${ids.length ? `: the categories are ${ids.join(', ')}` : ': no category is available right now'}`,
      EXIT.usage,
      'mt categories lists them with their names',
    );
  } catch {
    return error;
  }
}
