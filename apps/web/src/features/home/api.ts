/**
 * Server state of the home page: the template list (polled while a merge runs or a thumbnail is on
 * its way) and the mutations of its menu. Rename, delete and removing a history entry show at once
 * (optimistic) and are taken back if the server refuses; every mutation refreshes the list after.
 */
import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Merge, TemplateSummary } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { invalidateAfterMerge, routeMutationFn } from '../../api/routeQuery.ts';
import { awaitsThumbnail, hasRunningMerge, isMergeRunning } from './templateList.ts';

/** While a merge is queued or generating the list (with its progress) is refreshed this often. */
export const RUNNING_MERGE_POLL_MS = 2_000;

/** While a new template's thumbnail is being made in the background, the list is refreshed this often. */
export const THUMBNAIL_POLL_MS = 3_000;

/**
 * Merges that have ended (completed, failed or cancelled) since the answer `before`: running then,
 * or not there at all (started and ended in between, e.g. while the user was in the wizard).
 */
export function endedMerges(before: readonly TemplateSummary[] | undefined, after: readonly TemplateSummary[]): Merge[] {
  if (!before) return [];
  const known = new Map(before.flatMap((template) => template.merges.map((merge) => [merge.mergeId, merge] as const)));
  return after.flatMap((template) => template.merges.filter((merge) => {
    const earlier = known.get(merge.mergeId);
    return !isMergeRunning(merge) && (!earlier || isMergeRunning(earlier));
  }));
}

/**
 * Merges the wizard last saw running (their progress query is still cached) that have ended: the
 * user left the wizard while the documents were made. Their cached progress takes the end.
 */
export function mergesSeenEnding(client: QueryClient, templates: readonly TemplateSummary[]): Merge[] {
  const ended = templates.flatMap((template) => template.merges).filter((merge) => {
    if (isMergeRunning(merge)) return false;
    const followed = client.getQueryData<Merge>(queryKeys.merges.one(merge.templateId, merge.mergeId));
    return followed !== undefined && isMergeRunning(followed);
  });
  ended.forEach((merge) => client.setQueryData(queryKeys.merges.one(merge.templateId, merge.mergeId), merge));
  return ended;
}

/** The user's templates with their merge history. */
export const templatesQuery = () => queryOptions({
  queryKey: queryKeys.templates.list(),
  queryFn: async ({ signal, client, queryKey }) => {
    const { templates } = await api.call('listTemplates', { signal });
    // A merge that ended while the user was elsewhere (home, another step, out of the wizard) changed
    // the counter too.
    const ended = [...endedMerges(client.getQueryData<TemplateSummary[]>(queryKey), templates), ...mergesSeenEnding(client, templates)];
    if (ended.length > 0) invalidateAfterMerge(client, { list: false });
    return templates;
  },
  refetchInterval: (query) => {
    if (hasRunningMerge(query.state.data)) return RUNNING_MERGE_POLL_MS;
    return awaitsThumbnail(query.state.data) ? THUMBNAIL_POLL_MS : false;
  },
});

type ListSnapshot = { previous: TemplateSummary[] | undefined };

/** Changes the cached list at once; the snapshot lets onError put it back. */
async function changeList(queryClient: QueryClient, change: (list: TemplateSummary[]) => TemplateSummary[]): Promise<ListSnapshot> {
  const key = queryKeys.templates.list();
  // A poll answering now would overwrite the optimistic change with the old list.
  await queryClient.cancelQueries({ queryKey: key });
  const previous = queryClient.getQueryData<TemplateSummary[]>(key);
  if (previous) queryClient.setQueryData<TemplateSummary[]>(key, change(previous));
  return { previous };
}

function optimistic<V>(queryClient: QueryClient, change: (list: TemplateSummary[], variables: V) => TemplateSummary[]) {
  return {
    onMutate: (variables: V) => changeList(queryClient, (list) => change(list, variables)),
    onError: (_error: unknown, _variables: V, snapshot: ListSnapshot | undefined) => {
      if (snapshot?.previous) queryClient.setQueryData(queryKeys.templates.list(), snapshot.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() }),
  };
}

export const renameTemplateMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['templates', 'rename'],
  mutationFn: routeMutationFn('updateTemplate', ({ template, customName }: { template: TemplateSummary; customName: string }) => ({ params: { id: template.id }, body: { customName } })),
  ...optimistic(queryClient, (list, { template, customName }: { template: TemplateSummary; customName: string }) =>
    list.map((item) => (item.id === template.id ? { ...item, customName: customName.trim() || null } : item))),
});

export const deleteTemplateMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['templates', 'delete'],
  mutationFn: routeMutationFn('deleteTemplate', (template: TemplateSummary) => ({ params: { id: template.id } })),
  ...optimistic(queryClient, (list, template: TemplateSummary) => list.filter((item) => item.id !== template.id)),
});

export const deleteMergeMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['merges', 'delete'],
  mutationFn: routeMutationFn('deleteMerge', (merge: Merge) => ({ params: { id: merge.templateId, mergeId: merge.mergeId } })),
  ...optimistic(queryClient, (list, merge: Merge) =>
    list.map((item) => (item.id === merge.templateId ? { ...item, merges: item.merges.filter((entry) => entry.mergeId !== merge.mergeId) } : item))),
});

/** A change the list shows only once the server made it (a copy, an import, a sheet or files deleted): the list is asked again after. */
function refreshingList(queryClient: QueryClient) {
  return { onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() }) };
}

export const copyTemplateMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['templates', 'copy'],
  mutationFn: routeMutationFn('copyTemplate', (template: TemplateSummary) => ({ params: { id: template.id } })),
  ...refreshingList(queryClient),
});

export const importTemplateMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['templates', 'import'],
  mutationFn: routeMutationFn('importTemplate', (file: File) => ({ file })),
  ...refreshingList(queryClient),
});

export const deleteSheetMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['templates', 'deleteSheet'],
  mutationFn: routeMutationFn('deleteExcel', (template: TemplateSummary) => ({ params: { id: template.id } })),
  ...refreshingList(queryClient),
});

export const deleteMergeFilesMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['merges', 'deleteFiles'],
  mutationFn: routeMutationFn('deleteMergeFiles', (merge: Merge) => ({ params: { id: merge.templateId, mergeId: merge.mergeId } })),
  ...refreshingList(queryClient),
});
