// @vitest-environment node
/**
 * The home page's server state in the query cache: rename, delete and removing a history entry show
 * in the list at once and come back when the server refuses; a merge the list sees end refreshes the
 * user (the navbar's counter chip) without a reload.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import type { Merge, TemplateSummary } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { copyTemplateMutation, deleteMergeMutation, deleteTemplateMutation, endedMerges, renameTemplateMutation, templatesQuery } from './api.ts';

const T1 = 'A'.repeat(20);
const T2 = 'B'.repeat(20);
const M1 = 'M'.repeat(20);

const merge = (status: Merge['status'], extra: Partial<Merge> = {}): Merge => ({
  mergeId: M1, templateId: T1, status, total: 3, done: status === 'completed' ? 3 : 1, isCombinedOutput: false, fileName: null, fileSize: null,
  downloadUrl: null, filesDeleted: false, madeViaApi: false, mailingStatus: null, issues: [], error: null, createdAt: '', finishedAt: null, ...extra,
} as Merge);

const template = (id: string, extra: Partial<TemplateSummary> = {}): TemplateSummary => ({
  id, name: `${id}.pdf`, customName: null, merges: [], thumbnailUrl: 'x', isEncrypted: false, updatedAt: '2020-01-01T00:00:00Z', ...extra,
} as TemplateSummary);

const refusal = () => new ApiError({ status: 409, code: 'template/merge-in-progress', message: 'A mail merge is in progress' });

/** A server answer the test releases when it wants to look at the list in between. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ([resolve, reject] = [res, rej]));
  return { promise, resolve, reject };
}

const clients: QueryClient[] = [];
function client(list: TemplateSummary[]): QueryClient {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  clients.push(queryClient);
  queryClient.setQueryData(queryKeys.templates.list(), list);
  return queryClient;
}
const listOf = (queryClient: QueryClient) => queryClient.getQueryData<TemplateSummary[]>(queryKeys.templates.list());

afterEach(() => {
  vi.restoreAllMocks();
  clients.splice(0).forEach((queryClient) => queryClient.clear());
});

describe('template mutations', () => {
  it('shows a new name at once and the old one again when the server refuses', async () => {
    const queryClient = client([template(T1), template(T2)]);
    const answer = deferred<never>();
    vi.spyOn(api, 'call').mockReturnValue(answer.promise);
    const rename = new MutationObserver(queryClient, renameTemplateMutation(queryClient)).mutate({ template: template(T1), customName: 'March invoices' });
    await vi.waitFor(() => expect(listOf(queryClient)?.[0]?.customName).toBe('March invoices'));
    answer.reject(refusal());
    await expect(rename).rejects.toMatchObject({ code: 'template/merge-in-progress' });
    expect(listOf(queryClient)?.map((item) => item.customName)).toEqual([null, null]);
  });

  it('takes a deleted template off the list at once and brings it back when the server refuses', async () => {
    const queryClient = client([template(T1), template(T2)]);
    const answer = deferred<never>();
    vi.spyOn(api, 'call').mockReturnValue(answer.promise);
    const removal = new MutationObserver(queryClient, deleteTemplateMutation(queryClient)).mutate(template(T1));
    await vi.waitFor(() => expect(listOf(queryClient)?.map((item) => item.id)).toEqual([T2]));
    answer.reject(refusal());
    await expect(removal).rejects.toBeInstanceOf(ApiError);
    expect(listOf(queryClient)?.map((item) => item.id)).toEqual([T1, T2]);
  });

  it('keeps a deleted history entry off the list once the server accepted', async () => {
    const done = merge('completed');
    const queryClient = client([template(T1, { merges: [done] })]);
    vi.spyOn(api, 'call').mockImplementation(async (route) => {
      if (route === 'deleteMerge') return { message: 'deleted' } as never;
      return { templates: [template(T1)] } as never; // the refresh after the mutation
    });
    await new MutationObserver(queryClient, deleteMergeMutation(queryClient)).mutate(done);
    expect(listOf(queryClient)?.[0]?.merges).toEqual([]);
  });

  it('shows a copy once the server made it: the list is asked for again', async () => {
    const queryClient = client([template(T1)]);
    // The home page has the list on screen.
    const unsubscribe = new QueryObserver(queryClient, { ...templatesQuery(), refetchInterval: false }).subscribe(() => undefined);
    const copy = template(T2, { name: 'Copy of A.pdf' });
    vi.spyOn(api, 'call').mockImplementation(async (route) => (route === 'copyTemplate' ? copy : { templates: [template(T1), copy] }) as never);
    await new MutationObserver(queryClient, copyTemplateMutation(queryClient)).mutate(template(T1));
    await vi.waitFor(() => expect(listOf(queryClient)?.map((item) => item.id)).toEqual([T1, T2]));
    unsubscribe();
  });
});

describe('the template list and the counter', () => {
  it('finds the merges that ended between two answers', () => {
    expect(endedMerges([template(T1, { merges: [merge('generating')] })], [template(T1, { merges: [merge('completed')] })]).map((m) => m.mergeId)).toEqual([M1]);
    expect(endedMerges(undefined, [template(T1, { merges: [merge('completed')] })])).toEqual([]);
    expect(endedMerges([template(T1, { merges: [merge('completed')] })], [template(T1, { merges: [merge('completed')] })])).toEqual([]);
    // Started and ended between two answers (the user was in the wizard meanwhile).
    expect(endedMerges([template(T1)], [template(T1, { merges: [merge('completed')] })]).map((m) => m.mergeId)).toEqual([M1]);
    expect(endedMerges([template(T1)], [template(T1, { merges: [merge('generating')] })])).toEqual([]);
  });

  it('refreshes the signed-in user (counter chip) when a polled list shows a merge has ended', async () => {
    const queryClient = client([template(T1, { merges: [merge('generating')] })]);
    queryClient.setQueryData(queryKeys.me, { counter: 0 });
    const me = vi.fn(async () => ({ counter: 3 }));
    vi.spyOn(api, 'call').mockImplementation(async (route) => {
      if (route === 'me') return me() as never;
      return { templates: [template(T1, { merges: [merge('completed')] })] } as never;
    });
    // The navbar observes the user; the home page observes the list.
    const unsubscribeMe = new QueryObserver(queryClient, { queryKey: queryKeys.me, queryFn: () => api.call('me'), staleTime: 60_000 }).subscribe(() => undefined);
    await queryClient.fetchQuery({ ...templatesQuery(), staleTime: 0 });
    await vi.waitFor(() => expect(queryClient.getQueryData(queryKeys.me)).toEqual({ counter: 3 }));
    expect(me).toHaveBeenCalledTimes(1);
    unsubscribeMe();
  });

  it('refreshes the user when the first list after leaving the wizard shows the merge it followed has ended', async () => {
    // A fresh page (no earlier list): the wizard followed the merge, then the user went home.
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    clients.push(queryClient);
    queryClient.setQueryData(queryKeys.merges.one(T1, M1), merge('generating'));
    queryClient.setQueryData(queryKeys.me, { counter: 0 });
    vi.spyOn(api, 'call').mockResolvedValue({ templates: [template(T1, { merges: [merge('completed')] })] } as never);
    await queryClient.fetchQuery(templatesQuery());
    expect(queryClient.getQueryState(queryKeys.me)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryData(queryKeys.merges.one(T1, M1))).toMatchObject({ status: 'completed' });
    // Seen once: the next answer changes nothing more.
    queryClient.setQueryData(queryKeys.me, { counter: 3 });
    await queryClient.fetchQuery({ ...templatesQuery(), staleTime: 0 });
    expect(queryClient.getQueryState(queryKeys.me)?.isInvalidated).toBe(false);
  });

  it('leaves the user alone when nothing ended', async () => {
    const queryClient = client([template(T1, { merges: [merge('generating')] })]);
    queryClient.setQueryData(queryKeys.me, { counter: 0 });
    vi.spyOn(api, 'call').mockResolvedValue({ templates: [template(T1, { merges: [merge('generating')] })] } as never);
    await queryClient.fetchQuery({ ...templatesQuery(), staleTime: 0 });
    expect(queryClient.getQueryState(queryKeys.me)?.isInvalidated).toBe(false);
  });
});
