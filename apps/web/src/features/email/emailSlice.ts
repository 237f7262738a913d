/**
 * The email part of step 4 as the user edits it (docs/email.md#composing): the draft
 * settings and formErrors, whose entries clear as soon as their field changes. The saved settings
 * are the template's, in the query cache (wizard/templateDetail.ts); what differs from them is saved
 * by updateEmailSettings.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_EMAIL_SETTINGS, type TemplateEmailSettings } from '@sheaf/shared';
import type { EmailField, EmailProblems } from './emailRules.ts';

export interface EmailState {
  /** The template the draft belongs to. */
  templateId: string | null;
  settings: TemplateEmailSettings;
  formErrors: EmailProblems;
}

const initialState: EmailState = {
  templateId: null,
  settings: DEFAULT_EMAIL_SETTINGS,
  formErrors: {},
};

/** The form field a setting is shown in (the sender picker is formErrors.fromEmail, docs/email.md#composing). */
const FIELD_OF: Partial<Record<keyof TemplateEmailSettings, EmailField>> = {
  senderId: 'fromEmail',
  fromName: 'fromName',
  subject: 'subject',
  content: 'content',
  recipientsColumn: 'recipientsColumn',
  replyTo: 'replyTo',
};

export type EmailSettingsPatch = Partial<Omit<TemplateEmailSettings, 'staticAttachments'>>;

/** The draft's settings that differ from the saved ones (attachments are saved by their own calls). */
export function unsavedChanges(draft: TemplateEmailSettings, saved: TemplateEmailSettings): EmailSettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(draft) as (keyof TemplateEmailSettings)[]) {
    if (key !== 'staticAttachments' && draft[key] !== saved[key]) patch[key] = draft[key];
  }
  return patch as EmailSettingsPatch;
}

const emailSlice = createSlice({
  name: 'email',
  initialState,
  reducers: {
    /** A template opened in step 4: its saved settings become the draft. */
    emailLoaded(state, action: PayloadAction<{ templateId: string; settings: TemplateEmailSettings }>) {
      state.templateId = action.payload.templateId;
      state.settings = action.payload.settings;
      state.formErrors = {};
    },
    emailChanged(state, action: PayloadAction<EmailSettingsPatch>) {
      for (const [key, value] of Object.entries(action.payload) as [keyof EmailSettingsPatch, unknown][]) {
        if (state.settings[key] === value) continue;
        (state.settings as Record<string, unknown>)[key] = value;
        const field = FIELD_OF[key];
        if (field) delete state.formErrors[field];
        // Switching email off leaves nothing to complain about.
        if (key === 'isActive' && value === false) state.formErrors = {};
      }
    },
    /** The server's copy after a save (the cache keeps it); the draft keeps what was typed meanwhile. */
    emailSaved(state, action: PayloadAction<{ templateId: string; sent: EmailSettingsPatch; settings: TemplateEmailSettings }>) {
      if (action.payload.templateId !== state.templateId) return;
      for (const [key, value] of Object.entries(action.payload.sent) as [keyof EmailSettingsPatch, unknown][]) {
        // Unchanged since it was sent: take the server's normalised value.
        if (state.settings[key] === value) (state.settings as Record<string, unknown>)[key] = action.payload.settings[key];
      }
    },
    attachmentsChanged(state, action: PayloadAction<{ templateId: string; staticAttachments: TemplateEmailSettings['staticAttachments'] }>) {
      if (action.payload.templateId !== state.templateId) return;
      state.settings.staticAttachments = action.payload.staticAttachments;
    },
    setFormErrors(state, action: PayloadAction<EmailProblems>) {
      state.formErrors = action.payload;
    },
    emailLeft() {
      return initialState;
    },
  },
});

export const { emailLoaded, emailChanged, emailSaved, attachmentsChanged, setFormErrors, emailLeft } = emailSlice.actions;
export default emailSlice.reducer;
