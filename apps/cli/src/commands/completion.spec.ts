import { PassThrough } from 'node:stream';
import { createContext } from '../command-context';
import type { Io } from '../io';
import { buildProgram } from '../program';
import { complete } from './completion';

describe('completion candidates', () => {
  const io: Io = {
    stdin: new PassThrough() as unknown as NodeJS.ReadStream,
    stdout: new PassThrough() as unknown as NodeJS.WriteStream,
    stderr: new PassThrough() as unknown as NodeJS.WriteStream,
    env: {},
  };
  const program = buildProgram(createContext(io, { value: 0 }));
  const categories = async () => ['books', 'games', 'movies'];
  const candidates = (words: string[]) => complete(program, words, categories);

  it('offers commands, then subcommands', async () => {
    expect(await candidates([''])).toEqual(['login', 'logout', 'whoami', 'categories', 'search', 'show', 'list', 'add', 'set', 'rm', 'import', 'imports', 'export', 'watch', 'progress', 'up-next', 'diary', 'stats', 'history', 'sync', 'tokens', 'hooks', 'inbox', 'catalog', 'role', 'completion']);
    expect(await candidates(['tokens', 'c'])).toEqual(['create']);
    expect(await candidates(['hooks', ''])).toEqual(['ls', 'create', 'rm']);
    expect(await candidates(['inbox', ''])).toEqual(['resolve', 'dismiss']);
    expect(await candidates(['catalog', ''])).toEqual(['rm', 'merge']);
    expect(await candidates(['role', '665f1f0c2a4b7e0012345678', ''])).toEqual(['user', 'moderator']);
  });

  it('offers the categories the server has for a <category> argument, and nothing after the last argument', async () => {
    expect(await candidates(['list', 'g'])).toEqual(['games']);
    expect(await candidates(['show', 'movies', ''])).toEqual([]);
    expect(await candidates(['list', 'movies', ''])).toEqual([]);
    expect(await candidates(['import', 'books', 'g'])).toEqual(['goodreads']);
    expect(await candidates(['export', 'b'])).toEqual(['books']);
  });

  it('offers the options of the command and the global ones, and the choices of an option value', async () => {
    expect(await candidates(['list', 'movies', '--s'])).toEqual(['--status', '--sort']);
    expect(await candidates(['add', 'movies', '--j'])).toEqual(['--json']);
    expect(await candidates(['list', 'movies', '--sort', ''])).toEqual(['updated_at', 'created_at', 'title', 'score']);
    expect(await candidates(['--url', 'http://x', 'list', '--status', 'w'])).toEqual(['watching']);
    expect(await candidates(['import', 'movies', '--mode', ''])).toEqual(['skip_existing', 'overwrite']);
    expect(await candidates(['export', '--format', ''])).toEqual(['json', 'csv']);
  });

  it('skips option values when counting arguments', async () => {
    expect(await candidates(['set', '--status', 'completed', 'b'])).toEqual(['books']);
  });
});
