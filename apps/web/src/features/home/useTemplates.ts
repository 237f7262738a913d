import { useQuery } from '@tanstack/react-query';
import { templatesQuery } from './api.ts';

/** The user's templates with their merge history; polls while a merge runs or a thumbnail is on its way. */
export function useTemplates() {
  return useQuery(templatesQuery());
}
