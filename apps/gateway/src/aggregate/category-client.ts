import { errors } from '@mt/errors';
import { signIdentity, type Identity } from '@mt/identity';
import type { RouteTable } from '@mt/registry-client';

/** Why a category's part of an aggregate answer is missing: shown to the client beside the parts that arrived. */
export class CategoryCallError extends Error {
  override readonly name = 'CategoryCallError';
  constructor(
    readonly code: 'service_unavailable' | 'gateway_timeout' | 'bad_gateway',
    message: string,
  ) {
    super(message);
  }
}

/** A category's failure as the whole answer's error, where one category is all the answer needs. */
export const asApiError = (error: CategoryCallError) =>
  ({ service_unavailable: errors.serviceUnavailable, gateway_timeout: errors.gatewayTimeout, bad_gateway: errors.badGateway })[error.code](error.message);

export interface CategoryAnswer<T> {
  status: number;
  body: T;
}

export interface CategoryClientOptions {
  routeTable: RouteTable;
  internalSecret: string;
  identity: Identity | undefined;
  requestId: string;
}

/**
 * A client of the categories' existing endpoints for one aggregate request: a live instance from the route
 * table, the caller's identity signed as the proxy signs it, the request id passed on for the logs. A 2xx or
 * 4xx is an answer; no instance, a 5xx, a timeout or an unreadable body is a CategoryCallError.
 */
export class CategoryClient {
  constructor(private readonly options: CategoryClientOptions) {}

  /** GETs one category's public API as the caller would through the gateway (same paths, same signed identity). */
  async get<T>(category: string, pathAndQuery: string, signal: AbortSignal): Promise<CategoryAnswer<T>> {
    const { routeTable, internalSecret, identity, requestId } = this.options;
    const instance = routeTable.pickInstance(category);
    if (!instance) throw new CategoryCallError('service_unavailable', `no live instance of ${category}`);
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId };
    if (identity) Object.assign(headers, signIdentity(identity, requestId, internalSecret));
    let response: Response;
    try {
      response = await fetch(`${instance.base_url.replace(/\/+$/, '')}/api/v1/${category}${pathAndQuery}`, { headers, signal });
    } catch (error) {
      if (signal.aborted) throw new CategoryCallError('gateway_timeout', `${category} did not answer in time`);
      throw new CategoryCallError('service_unavailable', `${category} could not be reached (${(error as Error).message})`);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new CategoryCallError(response.status === 503 ? 'service_unavailable' : 'bad_gateway', `${category} answered ${response.status}`);
    }
    try {
      return { status: response.status, body: (await response.json()) as T };
    } catch {
      if (signal.aborted) throw new CategoryCallError('gateway_timeout', `${category} did not answer in time`);
      throw new CategoryCallError('bad_gateway', `${category} answered something that is not JSON`);
    }
  }
}
