import type { HttpMethod, ManifestRoute, RouteAccess } from '@mt/contracts';
import { redactPath } from '@mt/logging';
import { apiSegments, templateSegments } from './api-path';

/** Where a routed request goes: the gateway's own handlers, or a registered service's instances. */
export type Upstream = { kind: 'gateway' } | { kind: 'service'; service: string };

export interface RouteTarget {
  upstream: Upstream;
  /** The path template (`/api/v1/movies/list/{item_id}`): the low-cardinality label of logs and metrics. */
  template: string;
  access: RouteAccess;
  bodyLimit: number;
}

export type RouteDecision =
  | ({ kind: 'route' } & RouteTarget)
  | { kind: 'not_found'; message: string }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'unavailable'; message: string };

/** One source of routes: the gateway's own, or a service's manifest. */
export interface RouteSource {
  upstream: Upstream;
  routes: readonly ManifestRoute[];
}

/** A route decision made once, when the table is compiled: every request to it gets this same object. */
type RouteFound = Readonly<{ kind: 'route' } & RouteTarget>;

interface Node {
  literals: Map<string, Node>;
  param?: Node;
  methods?: Map<string, RouteFound>;
  /** The 405 answer of this path, built once. */
  notAllowed?: RouteDecision;
}

const newNode = (): Node => ({ literals: new Map() });

/** HEAD is GET without a body, with GET's access; the Allow header lists HEAD wherever GET is. */
const allowOf = (methods: Map<string, RouteFound>) => {
  const allow = [...methods.keys()];
  if (allow.includes('GET')) allow.push('HEAD');
  return allow;
};

/** Literal segments first (case-insensitively, as Express matches), then a parameter; backtracks. */
function find(node: Node, segments: readonly string[], index: number): Node | undefined {
  if (index === segments.length) return node.methods ? node : undefined;
  const literal = node.literals.get((segments[index] as string).toLowerCase());
  const viaLiteral = literal && find(literal, segments, index + 1);
  if (viaLiteral) return viaLiteral;
  return node.param && find(node.param, segments, index + 1);
}

export interface RouteMatcher {
  resolve(method: string, path: string): RouteDecision;
}

/**
 * Compiles route sources into one matcher. A service may only route paths under its own segment
 * (`/api/v1/<service>/...`), and the first source to claim a (method, template) keeps it: the gateway's
 * own routes come first. What is refused is reported through `onRefused`.
 */
export function compileRoutes(sources: readonly RouteSource[], onRefused: (reason: string) => void = () => undefined): RouteMatcher {
  const root = newNode();
  for (const { upstream, routes } of sources) {
    for (const route of routes) {
      const segments = templateSegments(route.path);
      if (upstream.kind === 'service' && segments[0] !== upstream.service) {
        onRefused(`${upstream.service}: ${route.method} ${route.path} is outside /api/v1/${upstream.service}`);
        continue;
      }
      let node = root;
      for (const segment of segments) {
        if (segment.startsWith('{')) node = node.param ??= newNode();
        else {
          const key = segment.toLowerCase();
          let child = node.literals.get(key);
          if (!child) node.literals.set(key, (child = newNode()));
          node = child;
        }
      }
      const methods = (node.methods ??= new Map());
      const method: HttpMethod = route.method;
      if (methods.has(method)) {
        onRefused(`${route.method} ${route.path} is already routed elsewhere`);
        continue;
      }
      methods.set(method, Object.freeze({ kind: 'route', upstream, template: route.path, access: route.access, bodyLimit: route.body_limit }));
      node.notAllowed = undefined;
    }
  }

  return {
    resolve(method, path) {
      const segments = apiSegments(path);
      const node = segments && segments.length > 0 ? find(root, segments, 0) : undefined;
      if (!node?.methods) return { kind: 'not_found', message: `no route for ${redactPath(path)}` };
      const found = node.methods.get(method === 'HEAD' ? 'GET' : method);
      if (found) return found;
      return (node.notAllowed ??= { kind: 'method_not_allowed', allow: allowOf(node.methods) });
    },
  };
}
