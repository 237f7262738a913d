import { useCallback, useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Merge, TemplateSummary } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError } from '../../i18n/errors.ts';
import { saveBlob } from './download.ts';
import { exportFileName, templateDisplayName } from './templateList.ts';
import {
  copyTemplateMutation, deleteMergeFilesMutation, deleteMergeMutation, deleteSheetMutation, deleteTemplateMutation, importTemplateMutation, renameTemplateMutation,
} from './api.ts';

/** Share errors shown under the email field rather than in the snackbar. */
const SHARE_FIELD_CODES = new Set(['share/user-not-found', 'share/self', 'auth/email-invalid', 'auth/email-empty', 'generic/invalid-input']);

export type ShareResult = { ok: true } | { ok: false; fieldError: string | null };

/**
 * Every action of the home page's template menu and history entries: the call, the list refresh
 * and the success or failure snackbar (docs/library.md#home-page: one of each per action).
 */
export function useTemplateActions() {
  const { t } = useTranslation(['home', 'errors']);
  const notify = useNotify();
  const queryClient = useQueryClient();

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() }), [queryClient]);
  // Shown in the list at once, taken back if the server refuses (features/home/api.ts).
  const { mutateAsync: renameTemplate } = useMutation(renameTemplateMutation(queryClient));
  const { mutateAsync: deleteTemplate } = useMutation(deleteTemplateMutation(queryClient));
  const { mutateAsync: deleteMerge } = useMutation(deleteMergeMutation(queryClient));
  // Shown once the server made them. Every mutation asks for the list again when it has answered.
  const { mutateAsync: copyTemplate } = useMutation(copyTemplateMutation(queryClient));
  const { mutateAsync: importTemplate } = useMutation(importTemplateMutation(queryClient));
  const { mutateAsync: deleteSheet } = useMutation(deleteSheetMutation(queryClient));
  const { mutateAsync: deleteMergeFiles } = useMutation(deleteMergeFilesMutation(queryClient));

  /** Runs one action; the failure text is the server's translated reason where there is one. */
  const run = useCallback(
    async (action: () => Promise<unknown>, success: string, failure: string): Promise<boolean> => {
      try {
        await action();
        notify('success', success);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.isCancelled) return false;
        const reason = error instanceof ApiError && error.status < 500 && !error.isNetwork ? translateError(error, t) : null;
        // The server's reason (e.g. "a mail merge in progress") says more than the generic failure.
        notify('error', reason ?? failure);
        return false;
      }
    },
    [notify, t],
  );

  return useMemo(() => ({
    copy: (template: TemplateSummary) =>
      run(() => copyTemplate(template), t('home:copy.success'), t('home:copy.failure')),

    rename: (template: TemplateSummary, customName: string) =>
      run(
        () => renameTemplate({ template, customName }),
        t('home:rename.success'),
        t('home:rename.failure'),
      ),

    async share(template: TemplateSummary, email: string): Promise<ShareResult> {
      try {
        await api.call('shareTemplate', { params: { id: template.id }, body: { email } });
        notify('success', t('home:share.success', { email }));
        return { ok: true };
      } catch (error) {
        if (error instanceof ApiError && SHARE_FIELD_CODES.has(error.fields?.email ?? error.code)) {
          return { ok: false, fieldError: translateError(error, t) };
        }
        if (!(error instanceof ApiError && error.isCancelled)) notify('error', t('home:share.failure'));
        return { ok: false, fieldError: null };
      }
    },

    exportFile: (template: TemplateSummary) =>
      run(
        async () => saveBlob(await api.blob('exportTemplate', { params: { id: template.id } }), exportFileName(template)),
        t('home:export.success'),
        t('home:export.failure'),
      ),

    remove: (template: TemplateSummary) =>
      run(
        () => deleteTemplate(template),
        t('home:delete.success', { name: templateDisplayName(template) }),
        t('home:delete.failure'),
      ),

    removeExcel: (template: TemplateSummary) =>
      run(() => deleteSheet(template), t('home:deleteExcel.success'), t('home:deleteExcel.failure')),

    deleteFiles: (merge: Merge) =>
      run(
        () => deleteMergeFiles(merge),
        t('home:deleteFiles.success'),
        t('home:deleteFiles.failure'),
      ),

    removeHistoryEntry: (merge: Merge) =>
      run(
        () => deleteMerge(merge),
        t('home:deleteMerge.success'),
        t('home:deleteMerge.failure'),
      ),

    importFile: (file: File) =>
      run(() => importTemplate(file), t('home:import.success'), t('home:import.failure')),

    downloadFailed: () => {
      notify('error', t('home:download.failure'));
      void refresh();
    },
  }), [run, notify, t, refresh, renameTemplate, deleteTemplate, deleteMerge, copyTemplate, importTemplate, deleteSheet, deleteMergeFiles]);
}

export type TemplateActions = ReturnType<typeof useTemplateActions>;
