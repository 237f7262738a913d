/**
 * The template open in the wizard lives in the query cache (queryKeys.templates.detail): the wizard
 * page loads it (useWizardTemplate), every server answer that carries a new copy replaces it
 * (templateReceived), a new spreadsheet patches it (sheetReceived) and the output settings are shown
 * at once and saved through a mutation that puts them back on refusal (showOutputChange, outputMutation). Redux keeps only its id and what the wizard
 * derives from it (the sheet the rows were chosen in, the decrypt dialog).
 */
import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import { mutationOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ExcelMeta, TemplateDetail, TemplateOutputSettings } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { queryClient as appQueryClient } from '../../app/queryClient.ts';
import { templateDetailQuery } from './api.ts';
import { excelChanged, templateLoaded } from './wizardSlice.ts';

/** The wizard's template as last answered; null on /wizard/new before the upload. */
export function useWizardDetail(): TemplateDetail | null {
  const templateId = useAppSelector((state) => state.wizard.templateId);
  // A reader only: useWizardTemplate asks the server.
  const detail = useQuery({ ...templateDetailQuery(templateId ?? ''), enabled: false });
  return templateId !== null && detail.data?.id === templateId ? detail.data : null;
}

/** The spreadsheet attached to the wizard's template (possibly unreadable: see `message`). */
export function useWizardExcel(): ExcelMeta | null {
  return useWizardDetail()?.excel ?? null;
}

/** The same, outside React (thunks and event handlers). */
export function wizardDetailNow(templateId: string | null, client: QueryClient = appQueryClient): TemplateDetail | null {
  return templateId ? client.getQueryData<TemplateDetail>(queryKeys.templates.detail(templateId)) ?? null : null;
}

/** A new copy of a template from the server: into the cache, and the wizard follows it. */
export function templateReceived(detail: TemplateDetail, client: QueryClient = appQueryClient) {
  return (dispatch: Dispatch<UnknownAction>): void => {
    client.setQueryData(queryKeys.templates.detail(detail.id), detail);
    dispatch(templateLoaded(detail));
  };
}

/** Changes the cached template without asking the server (the answer that said so carried no whole copy). */
export function patchTemplateDetail(templateId: string, patch: Partial<TemplateDetail>, client: QueryClient = appQueryClient): void {
  client.setQueryData<TemplateDetail>(queryKeys.templates.detail(templateId), (detail) => (detail ? { ...detail, ...patch } : detail));
}

/** Another spreadsheet for the template (uploaded, chosen or deleted at step 3). */
export function sheetReceived(templateId: string, excel: ExcelMeta | null, client: QueryClient = appQueryClient) {
  return (dispatch: Dispatch<UnknownAction>): void => {
    patchTemplateDetail(templateId, { excel, excelName: excel?.excelName ?? null }, client);
    dispatch(excelChanged(excel));
  };
}

export type OutputChange = { templateId: string; patch: Partial<TemplateOutputSettings>; before: TemplateOutputSettings };

/**
 * Shows a change of output settings in the cached template at once, in the same event as the
 * user's click (a controlled radio or field whose value waits for a later tick flicks back), and
 * returns the change for outputMutation; null when the template is not loaded.
 */
export function showOutputChange(templateId: string, patch: Partial<TemplateOutputSettings>, client: QueryClient = appQueryClient): OutputChange | null {
  const before = wizardDetailNow(templateId, client)?.output;
  if (!before) return null;
  patchTemplateDetail(templateId, { output: { ...before, ...patch } }, client);
  return { templateId, patch, before };
}

/** Saves a change showOutputChange made: put back if the server refuses, the server's own copy taken when it answers. */
export const outputMutation = (client: QueryClient = appQueryClient) => mutationOptions({
  mutationKey: ['templates', 'output'],
  mutationFn: ({ templateId, patch }: OutputChange) => api.call('updateTemplate', { params: { id: templateId }, body: { templateId, output: patch } }),
  onError: (_error: unknown, { templateId, before }: OutputChange) => patchTemplateDetail(templateId, { output: before }, client),
  onSuccess: (detail: TemplateDetail, { templateId }: OutputChange) => patchTemplateDetail(templateId, { output: detail.output }, client),
});
