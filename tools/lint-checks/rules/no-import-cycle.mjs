// An ESLint rule refusing import cycles, type-only imports included. import-x/no-cycle skips every
// `import type` (a type import cannot fail at run time), but a circle closed by a type still ties the
// modules together: neither can change or move alone. The graph is read with TypeScript's own
// pre-processor (every import, export-from, require and import() of a file) and the path aliases of
// tsconfig.base.json, so it costs one pass over each file reached, shared by all files of a lint run.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

function loadAliases(workspaceRoot) {
  const { compilerOptions } = JSON.parse(readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8'));
  return new Map(Object.entries(compilerOptions.paths ?? {}).map(([alias, [target]]) => [alias, path.join(workspaceRoot, target)]));
}

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function resolveFile(base) {
  if (EXTENSIONS.some((ext) => base.endsWith(ext)) && isFile(base)) return base;
  // `./x.js` written for a `./x.ts` source (node16 resolution style).
  const withoutJs = base.replace(/\.(c|m)?js$/, '');
  for (const ext of EXTENSIONS) if (isFile(withoutJs + ext)) return withoutJs + ext;
  for (const ext of EXTENSIONS) if (isFile(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  return null;
}

/** The module graph of one workspace: file → the workspace files it imports, read lazily and kept. */
export function createImportGraph(workspaceRoot) {
  const aliases = loadAliases(workspaceRoot);
  const edges = new Map();

  function resolve(specifier, fromFile) {
    if (specifier.startsWith('.')) return resolveFile(path.resolve(path.dirname(fromFile), specifier));
    const alias = aliases.get(specifier);
    return alias && existsSync(alias) ? alias : null;
  }

  function importsOf(file, text) {
    const cached = edges.get(file);
    if (cached && text === undefined) return cached;
    const source = text ?? (isFile(file) ? readFileSync(file, 'utf8') : '');
    const found = new Set();
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      const target = resolve(fileName, file);
      if (target) found.add(target);
    }
    edges.set(file, found);
    return found;
  }

  /** The chain of imports leading from `start` back to `file`, or null when none does. */
  function pathBack(start, file) {
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const current = queue.shift();
      for (const next of importsOf(current)) {
        if (next === file) {
          const chain = [current];
          for (let step = previous.get(current); step; step = previous.get(step)) chain.unshift(step);
          return chain;
        }
        if (!previous.has(next)) {
          previous.set(next, current);
          queue.push(next);
        }
      }
    }
    return null;
  }

  return { resolve, importsOf, pathBack };
}

const graphs = new Map();

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuse an import that leads back to the importing file, type-only imports included.' },
    schema: [{ type: 'object', properties: { workspaceRoot: { type: 'string' } }, additionalProperties: false }],
    messages: { cycle: 'Import cycle: {{chain}}' },
  },
  create(context) {
    const workspaceRoot = context.options[0]?.workspaceRoot ?? context.cwd;
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const graph = graphs.get(workspaceRoot) ?? createImportGraph(workspaceRoot);
    graphs.set(workspaceRoot, graph);
    // The text being linted, not the file on disk: an editor's unsaved buffer, a test's snippet.
    graph.importsOf(file, context.sourceCode.text);
    const relative = (f) => path.relative(path.dirname(file), f) || path.basename(f);

    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      const target = graph.resolve(specifier, file);
      if (!target || target === file) return;
      const chain = graph.pathBack(target, file);
      if (chain) context.report({ node, messageId: 'cycle', data: { chain: [path.basename(file), ...chain.map(relative), path.basename(file)].join(' → ') } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference' && check(node, node.moduleReference.expression.value),
    };
  },
};

export default { meta: { name: 'mt-lint' }, rules: { 'no-import-cycle': noImportCycle } };
