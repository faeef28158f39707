import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import kubernetesSchema from '../schemas/kubernetes.schema.json';
import kustomizationSchema from '../schemas/kustomization.schema.json';

/** Kubernetes resource.Quantity: a signed decimal with an optional SI, binary-SI or exponent suffix. */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv, ['date-time', 'byte']);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32.min && n <= INT32.max,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('quantity', QUANTITY);
  ajv.addVocabulary(['x-source', 'x-kinds']);
  ajv.addSchema(kubernetesSchema);
  return ajv;
}

export interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

const formatErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);

/**
 * Validates one object against the vendored schema of its apiVersion/kind. Unknown kinds are an error:
 * a manifest whose kind has no schema here needs the schema vendored (see schemas/README.md).
 */
export function createK8sValidator(): (object: K8sObject) => string[] {
  const ajv = createAjv();
  const kinds = kubernetesSchema['x-kinds'] as Record<string, string>;
  const validators = new Map<string, ValidateFunction>();
  const kustomization = ajv.compile(kustomizationSchema);
  return (object) => {
    if (object.kind === 'Kustomization')
      return kustomization(object) ? [] : formatErrors(kustomization.errors);
    const key = `${object.apiVersion}/${object.kind}`;
    const definition = kinds[key];
    if (!definition) return [`no vendored schema for ${key}`];
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `${kubernetesSchema.$id}#/definitions/${definition}` });
      validators.set(key, validate);
    }
    return validate(object) ? [] : formatErrors(validate.errors);
  };
}

/** Bytes of a memory quantity (`256Mi`, `1G`, `512e6`), for comparisons. */
export function memoryBytes(quantity: string | number): number {
  if (typeof quantity === 'number') return quantity;
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T|m|[eE]\d+)?$/.exec(quantity);
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const value = Number(match[1]);
  const suffix = match[2] ?? '';
  const factors: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
  };
  if (/^[eE]/.test(suffix)) return value * 10 ** Number(suffix.slice(1));
  return value * factors[suffix];
}

/** Millicores of a CPU quantity (`100m`, `1`, `0.5`). */
export function cpuMillis(quantity: string | number): number {
  if (typeof quantity === 'number') return quantity * 1000;
  const match = /^(\d+(?:\.\d+)?)(m)?$/.exec(quantity);
  if (!match) throw new Error(`not a CPU quantity: ${quantity}`);
  return match[2] ? Number(match[1]) : Number(match[1]) * 1000;
}
