import type { OpenApiFragment } from '@mt/contracts';

type JsonObject = Record<string, unknown>;

/** One contributor to the merged document. */
export interface OpenApiSource {
  /** Short name used when something of this source must be renamed: `gateway`, `auth`, `movies`. */
  id: string;
  /** Paths of this source must equal this prefix or lie under it; the gateway's own source has none. */
  pathPrefix?: string;
  fragment: OpenApiFragment;
  /**
   * This source's tags with their descriptions; the first goes to operations that carry none and lends
   * its description to other tags first seen in this source.
   */
  tags: [OpenApiTag, ...OpenApiTag[]];
  /** Where this source's tags are listed (lower first); by default, in source order. */
  displayRank?: number;
}

export interface OpenApiTag {
  name: string;
  description: string;
}

export interface MergeResult {
  document: JsonObject;
  /** What had to be dropped or renamed, for the log. */
  warnings: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const componentRef = (section: string, name: string) => `#/components/${section}/${name}`;
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const camel = (text: string) => text.replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase());

/**
 * Deep copy with every `$ref` (and discriminator mapping value) renamed through `renames`, and the
 * schema `{ nullable: true }` (what zod-to-openapi emits for `unknown`: "anything") written as `{}`,
 * since OpenAPI 3.0 gives `nullable` no meaning without a `type` and linters reject it.
 */
function rewriteFragment<T>(value: T, renames: ReadonlyMap<string, string>): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const keys = Object.keys(node);
    if (keys.length === 1 && node['nullable'] === true) return {};
    return Object.fromEntries(
      keys.map((key) => {
        const child = node[key];
        return [key, typeof child === 'string' && renames.has(child) ? renames.get(child) : walk(child)];
      }),
    );
  };
  return walk(value) as T;
}

/** Equality of JSON values: key order and properties set to `undefined` (absent in JSON) do not count. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keysOf = (o: JsonObject) => Object.keys(o).filter((key) => o[key] !== undefined);
  const keysA = keysOf(a);
  return keysA.length === keysOf(b).length && keysA.every((key) => key in b && jsonEqual(a[key], b[key]));
}

function uniqueName(base: string, taken: (name: string) => boolean): string {
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}${n}`;
  return name;
}

/**
 * Merges the sources into one OpenAPI 3.0 document, in order (earlier sources win):
 * - components: a same-named component must be identical and is kept once; a different one is renamed
 *   `<Name>_<source>` with the source's references rewritten (repeated until stable, so a component
 *   that only refers to a renamed one is renamed too). Security schemes are never renamed: the first
 *   definition (the gateway's, which authenticates) stands.
 * - paths: a source may only document paths under its prefix, and a path documented twice keeps its
 *   first owner.
 * - operations: operationIds are made unique (`<source><OperationId>`), and a missing operationId,
 *   summary, tag or security requirement is filled in, so the document passes standard linters.
 * Tags are listed by the display rank of the source that first used them, then in order of appearance.
 */
export function mergeOpenApi(skeleton: JsonObject, sources: OpenApiSource[]): MergeResult {
  const warnings: string[] = [];
  const paths: Record<string, JsonObject> = {};
  const components: Record<string, JsonObject> = {};
  const operationIds = new Set<string>();
  const tags = new Map<string, OpenApiTag & { rank: number }>();

  for (const [index, source] of sources.entries()) {
    const rank = source.displayRank ?? index;
    const noteTag = (name: string) => {
      if (tags.has(name)) return;
      const description = source.tags.find((tag) => tag.name === name)?.description ?? source.tags[0].description;
      tags.set(name, { name, description, rank });
    };
    const renames = planRenames(source, components, warnings);
    mergeComponents(rewriteFragment(source.fragment.components, renames), renames, components);
    for (const [path, item] of Object.entries(rewriteFragment(source.fragment.paths, renames))) {
      const prefix = source.pathPrefix;
      if (prefix !== undefined && path !== prefix && !path.startsWith(`${prefix}/`)) {
        warnings.push(`${source.id}: dropped ${path} (outside ${prefix})`);
        continue;
      }
      if (paths[path] || !isObject(item)) {
        warnings.push(`${source.id}: dropped ${path} (${paths[path] ? 'already documented' : 'not a path item'})`);
        continue;
      }
      paths[path] = normalizePathItem(path, item, source, operationIds, noteTag);
    }
  }

  // Array.prototype.sort is stable: equal ranks keep their order of appearance.
  const tagList = [...tags.values()].sort((a, b) => a.rank - b.rank).map(({ name, description }) => ({ name, description }));
  return { document: { ...skeleton, tags: tagList, paths, components }, warnings };
}

function planRenames(source: OpenApiSource, merged: Record<string, JsonObject>, warnings: string[]): Map<string, string> {
  const renames = new Map<string, string>();
  for (let changed = true; changed; ) {
    changed = false;
    const rewritten = rewriteFragment(source.fragment.components, renames);
    for (const [section, entries] of Object.entries(rewritten)) {
      for (const [name, value] of Object.entries(entries)) {
        const existing = merged[section]?.[name];
        if (section === 'securitySchemes' || renames.has(componentRef(section, name))) continue;
        if (existing === undefined || jsonEqual(existing, value)) continue;
        const taken = (candidate: string) => candidate in (merged[section] ?? {}) || candidate in entries;
        const renamed = uniqueName(`${name}_${source.id}`, taken);
        renames.set(componentRef(section, name), componentRef(section, renamed));
        warnings.push(`${source.id}: component ${section}/${name} differs from one already merged; renamed ${renamed}`);
        changed = true;
      }
    }
  }
  for (const [name, scheme] of Object.entries(source.fragment.components['securitySchemes'] ?? {})) {
    const existing = merged['securitySchemes']?.[name];
    if (existing !== undefined && !jsonEqual(existing, scheme)) {
      warnings.push(`${source.id}: security scheme ${name} differs from the gateway's; the gateway's definition is kept`);
    }
  }
  return renames;
}

function mergeComponents(fragmentComponents: Record<string, JsonObject>, renames: ReadonlyMap<string, string>, merged: Record<string, JsonObject>): void {
  for (const [section, entries] of Object.entries(fragmentComponents)) {
    const target = (merged[section] ??= {});
    for (const [name, value] of Object.entries(entries)) {
      const finalName = renames.get(componentRef(section, name))?.slice(`#/components/${section}/`.length) ?? name;
      if (!(finalName in target)) target[finalName] = value;
    }
  }
}

function normalizePathItem(
  path: string,
  item: JsonObject,
  source: OpenApiSource,
  operationIds: Set<string>,
  noteTag: (name: string) => void,
): JsonObject {
  const normalized: JsonObject = { ...item };
  for (const method of HTTP_METHODS) {
    const operation = item[method];
    if (!isObject(operation)) continue;
    const base =
      typeof operation['operationId'] === 'string' && operation['operationId']
        ? operation['operationId']
        : camel(`${method} ${path.replace(/[{}]/g, '')}`);
    const operationId = operationIds.has(base) ? uniqueName(`${camel(source.id)}${capitalize(base)}`, (id) => operationIds.has(id)) : base;
    operationIds.add(operationId);
    const tags = Array.isArray(operation['tags']) && operation['tags'].length ? (operation['tags'] as string[]) : [source.tags[0].name];
    tags.forEach(noteTag);
    normalized[method] = {
      ...operation,
      operationId,
      summary: operation['summary'] ?? `${method.toUpperCase()} ${path}`,
      tags,
      // No security requirement means public (there is no root-level requirement): say so explicitly.
      security: operation['security'] ?? [],
    };
  }
  return normalized;
}
