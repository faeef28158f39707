import { parseAllDocuments } from 'yaml';

/** Every document of a YAML stream as plain data; any syntax error throws, naming the source. */
export function parseYamlDocuments(text: string, source: string): unknown[] {
  // `merge: true`: compose files use `<<` merge keys (YAML 1.1), which YAML 1.2 parsers leave literal.
  const documents = parseAllDocuments(text, { merge: true });
  const values: unknown[] = [];
  for (const document of documents) {
    if (document.errors.length > 0) {
      throw new Error(`${source}: YAML error: ${document.errors.map((error) => error.message).join('; ')}`);
    }
    const value: unknown = document.toJSON();
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

export function parseYamlDocument(text: string, source: string): unknown {
  const [first, ...rest] = parseYamlDocuments(text, source);
  if (rest.length > 0) throw new Error(`${source}: expected one YAML document, found ${rest.length + 1}`);
  return first;
}
