/**
 * Loading and saving the email part of step 4. The draft lives in the email slice; what differs from
 * the saved settings is saved by updateEmailSettings shortly after typing stops, when step 4 is left
 * (the step changes or the wizard closes) and before the merge starts, one save at a time.
 */
import { useCallback, useEffect } from 'react';
import { useStore } from 'react-redux';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_FROM_NAME_LENGTH, entitlements, type MergeRequest, type RecipientsCheck, type Sender, type TemplateDetail, type TemplateEmailSettings } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { translateError } from '../../i18n/errors.ts';
import { sendersQuery, useEdition, usePlan } from '../senders/useSenders.ts';
import { patchTemplateDetail, wizardDetailNow, useWizardExcel } from '../wizard/templateDetail.ts';
import { sheetBounds } from '../wizard/wizardSlice.ts';
import { recipientsCheckQuery } from './api.ts';
import { hasProblems, sendProblems } from './emailRules.ts';
import { attachmentsChanged, emailLoaded, emailSaved, setFormErrors, unsavedChanges } from './emailSlice.ts';

/** Quiet time after the last keystroke before the draft is saved. */
export const AUTOSAVE_MS = 800;

let queue: Promise<unknown> = Promise.resolve();

/** Saves the unsaved changes (after any save under way). Resolves to the error, or null when saved. */
export function saveEmailSettings() {
  return (dispatch: AppDispatch, getState: () => RootState): Promise<unknown> => {
    const run = async (): Promise<unknown> => {
      const { email } = getState();
      const templateId = email.templateId;
      // The saved settings are the template's own, as the query cache has them.
      const saved = wizardDetailNow(templateId)?.email;
      if (!templateId || !saved) return null;
      const patch = unsavedChanges(email.settings, saved);
      // The schema refuses a longer from name; the field says so until it is fixed.
      if (patch.fromName !== undefined && patch.fromName.length > MAX_FROM_NAME_LENGTH) delete patch.fromName;
      if (Object.keys(patch).length === 0) return null;
      try {
        const settings = await api.call('updateEmailSettings', { params: { id: templateId }, body: { ...patch, templateId } });
        patchTemplateDetail(templateId, { email: settings });
        dispatch(emailSaved({ templateId, sent: patch, settings }));
        return null;
      } catch (error) {
        return error;
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
}

/** The server's attachments after an upload or removal: the template's (cached) and the draft's. */
export function attachmentsSaved(templateId: string, staticAttachments: TemplateEmailSettings['staticAttachments']) {
  return (dispatch: AppDispatch): void => {
    const saved = wizardDetailNow(templateId)?.email;
    if (saved) patchTemplateDetail(templateId, { email: { ...saved, staticAttachments } });
    dispatch(attachmentsChanged({ templateId, staticAttachments }));
  };
}

/** Saves and tells the user when it failed; resolves true when everything is saved. */
export function useSaveEmail(): () => Promise<boolean> {
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const { t } = useTranslation(['email', 'errors']);
  return useCallback(async () => {
    const error = await dispatch(saveEmailSettings());
    if (error) notify('error', `${t('save.failure')} ${translateError(error, t)}`);
    return error === null;
  }, [dispatch, notify, t]);
}

/** Loads the template's settings into the draft (once per template) and keeps them saved. */
export function useEmailDraft(template: TemplateDetail): void {
  const dispatch = useAppDispatch();
  const save = useSaveEmail();
  const loadedFor = useAppSelector((state) => state.email.templateId);
  const settings = useAppSelector((state) => state.email.settings);

  useEffect(() => {
    if (loadedFor !== template.id) dispatch(emailLoaded({ templateId: template.id, settings: template.email }));
  }, [loadedFor, template.id, template.email, dispatch]);

  useEffect(() => {
    if (loadedFor !== template.id) return undefined;
    const timer = setTimeout(() => void save(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [settings, loadedFor, template.id, save]);

  // Leaving step 4 (another step, another page): what was typed last is saved too.
  useEffect(() => () => void save(), [save]);
}

/** The recipients check of the chosen column (docs/email.md#recipients), refreshed when the column or sheet changes. */
export function useRecipientsCheck(enabled: boolean) {
  const templateId = useAppSelector((state) => state.wizard.templateId ?? '');
  const excel = useWizardExcel();
  const column = useAppSelector((state) => state.email.settings.recipientsColumn);
  const check = recipientsCheckQuery(templateId, column, excel);
  return useQuery({ ...check, enabled: enabled && check.enabled });
}

/** Email is on and the plan may send (a Free plan's saved "on" counts as off). */
export function useEmailActive(): boolean {
  const plan = usePlan();
  const edition = useEdition();
  const isActive = useAppSelector((state) => state.email.settings.isActive);
  const loaded = useAppSelector((state) => state.email.templateId === state.wizard.templateId);
  return loaded && isActive && entitlements(plan, edition).sendEmail;
}

/**
 * What the Send button runs first: with email on, every field is checked (problems go to
 * formErrors under their fields) and the settings are saved. Resolves to the merge request's
 * `email`, null when email is off, or false when sending must not start.
 */
export function usePrepareEmail(): () => Promise<MergeRequest['email'] | false> {
  const store = useStore<RootState>();
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const save = useSaveEmail();
  const active = useEmailActive();
  const { t } = useTranslation(['email', 'errors']);

  return useCallback(async () => {
    if (!active) return null;
    const { email, wizard } = store.getState();
    const template = wizardDetailNow(wizard.templateId, queryClient);
    const column = email.settings.recipientsColumn;
    if (!template) return false;
    const excel = template.excel;
    let check: RecipientsCheck | null = null;
    let senders: Sender[] = [];
    try {
      [senders, check] = await Promise.all([
        queryClient.fetchQuery({ ...sendersQuery(), staleTime: 10_000 }),
        column && sheetBounds(excel)
          ? queryClient.fetchQuery({ ...recipientsCheckQuery(template.id, column, excel), staleTime: 10_000 })
          : Promise.resolve(null),
      ]);
    } catch (error) {
      notify('error', translateError(error, t));
      return false;
    }
    const problems = sendProblems(email.settings, {
      headings: excel?.headers ?? [],
      sender: senders.find((sender) => sender.id === email.settings.senderId),
      check,
      isCombinedOutput: template.output.isCombinedOutput,
    });
    dispatch(setFormErrors(problems));
    if (hasProblems(problems)) {
      notify('error', t('send.incomplete'));
      return false;
    }
    if (!(await save())) return false;
    return { isActive: true, counts: { valid: check?.valid ?? 0, invalid: check?.invalid ?? 0 } };
  }, [active, store, dispatch, queryClient, notify, save, t]);
}
