// @vitest-environment node
/**
 * Saving the email draft: what differs from the template's saved settings (the cached template, not
 * a copy in Redux) is sent, the cache takes the server's answer, and an unchanged draft sends nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS, type TemplateDetail } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryClient } from '../../app/queryClient.ts';
import { createStore } from '../../app/store.ts';
import { templateReceived, wizardDetailNow } from '../wizard/templateDetail.ts';
import { emailChanged, emailLoaded } from './emailSlice.ts';
import { attachmentsSaved, saveEmailSettings } from './useEmailSettings.ts';

const ID = 'T'.repeat(20);
const saved = { ...DEFAULT_EMAIL_SETTINGS, isActive: true, subject: 'Invitation' };
const template = { id: ID, name: 'letter.pdf', excel: null, isEncrypted: false, output: {}, email: saved } as unknown as TemplateDetail;

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

describe('saving the email draft', () => {
  it('sends what differs from the cached template and keeps the answer there', async () => {
    const store = createStore();
    store.dispatch(templateReceived(template));
    store.dispatch(emailLoaded({ templateId: ID, settings: saved }));
    store.dispatch(emailChanged({ subject: 'Invitation to the party ' }));
    const call = vi.spyOn(api, 'call').mockImplementation(async () => ({ ...saved, subject: 'Invitation to the party' }) as never);
    await expect(store.dispatch(saveEmailSettings())).resolves.toBeNull();
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]?.[1]).toMatchObject({ body: { subject: 'Invitation to the party ', templateId: ID } });
    expect(wizardDetailNow(ID)?.email.subject).toBe('Invitation to the party');
    // The draft took the server's trimmed text: nothing is left to save.
    expect(store.getState().email.settings.subject).toBe('Invitation to the party');
    await store.dispatch(saveEmailSettings());
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('puts the attachments the server kept into the cached template and the draft', () => {
    const store = createStore();
    store.dispatch(templateReceived(template));
    store.dispatch(emailLoaded({ templateId: ID, settings: saved }));
    const files = [{ name: 'terms.pdf', size: 10 }] as unknown as typeof saved.staticAttachments;
    store.dispatch(attachmentsSaved(ID, files));
    expect(wizardDetailNow(ID)?.email.staticAttachments).toEqual(files);
    expect(store.getState().email.settings.staticAttachments).toEqual(files);
  });
});
