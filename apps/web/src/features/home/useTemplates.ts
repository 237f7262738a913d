import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { awaitsThumbnail, hasRunningMerge } from './templateList.ts';

export const TEMPLATES_KEY = ['templates'] as const;
/** While a merge is queued or generating the list (with its progress) is refreshed this often. */
export const RUNNING_MERGE_POLL_MS = 2_000;

/** While a new template's thumbnail is being made in the background, the list is refreshed this often. */
export const THUMBNAIL_POLL_MS = 3_000;

/** The user's templates with their merge history; polls while a merge runs or a thumbnail is on its way. */
export function useTemplates() {
  return useQuery({
    queryKey: TEMPLATES_KEY,
    queryFn: ({ signal }) => api.call('listTemplates', { signal }).then((list) => list.templates),
    refetchInterval: (query) => {
      if (hasRunningMerge(query.state.data)) return RUNNING_MERGE_POLL_MS;
      return awaitsThumbnail(query.state.data) ? THUMBNAIL_POLL_MS : false;
    },
  });
}
