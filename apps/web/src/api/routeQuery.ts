/**
 * Query options from the shared route table: a query is a route key (its path, payload and answer
 * types come from packages/shared's `routes`), the call's params and a key from `queryKeys`.
 * Feature api.ts files build their queries and mutations from these.
 */
import { queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { RouteKey } from '@sheaf/shared';
import { api, type CallOptions, type CallResult } from './client.ts';
import { queryKeys } from './queryKeys.ts';

type Request<K extends RouteKey> = Pick<CallOptions<K>, 'params' | 'query' | 'body'>;

/** The query function of a route: its call with the query's abort signal. */
export function routeQueryFn<K extends RouteKey>(route: K, request: Request<K> = {}) {
  return ({ signal }: { signal: AbortSignal }): Promise<CallResult<K>> => api.call(route, { ...request, signal } as CallOptions<K>);
}

/** The mutation function of a route: its call with the request made from the mutation's variables. */
export function routeMutationFn<K extends RouteKey, V>(route: K, request: (variables: V) => Request<K> & Pick<CallOptions<K>, 'file'>) {
  return (variables: V): Promise<CallResult<K>> => api.call(route, request(variables) as CallOptions<K>);
}

/** queryOptions for a GET route under `queryKey`. */
export function routeQuery<K extends RouteKey, TKey extends QueryKey>(queryKey: TKey, route: K, request: Request<K> = {}) {
  return queryOptions({ queryKey, queryFn: routeQueryFn(route, request) });
}

/** The signed-in user (plan, counter, saved view). */
export const meQuery = () => ({ ...routeQuery(queryKeys.me, 'me'), staleTime: 60_000 });

/** Server-provided parameters: asked once per session. */
export const configQuery = () => ({ ...routeQuery(queryKeys.config, 'config'), staleTime: Infinity });

/**
 * A merge has ended (completed, failed or cancelled): the counter in the navbar, the credits and the
 * template list (its history) have changed on the server. Every place that sees a merge end calls this.
 */
export function invalidateAfterMerge(queryClient: QueryClient, options: { list?: boolean } = {}): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  void queryClient.invalidateQueries({ queryKey: queryKeys.credits.all });
  if (options.list !== false) void queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
}
