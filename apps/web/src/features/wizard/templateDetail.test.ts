// @vitest-environment node
/**
 * The wizard's template in the query cache: a new copy from the server replaces it and the wizard
 * state follows (another sheet resets the chosen rows), unlocking and a new spreadsheet patch it,
 * and output settings show at once and come back when the server refuses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { ExcelMeta, TemplateDetail } from '@sheaf/shared';
import { configureStore } from '@reduxjs/toolkit';
import { api, ApiError } from '../../api/client.ts';
import { outputMutation, patchTemplateDetail, sheetReceived, showOutputChange, templateReceived, wizardDetailNow } from './templateDetail.ts';
import wizard, { rowSelectionChanged, templateUnlocked } from './wizardSlice.ts';

const ID = 'T'.repeat(20);
const excel: ExcelMeta = { excelName: 'people.xlsx', excelFileSize: 1200, headersRowNo: 1, headers: ['First', 'Last'], totalRowCount: 20, firstRow: 2, lastRow: 21 };
const template = (extra: Partial<TemplateDetail> = {}): TemplateDetail => ({
  id: ID, name: 'letter.pdf', customName: null, templateType: 'pdf', numPages: 1, isEncrypted: false, thumbnailUrl: null, excelName: excel.excelName,
  placeholderCount: 0, createdAt: '', updatedAt: '', checksum: 'c', placeholders: [], images: [], pages: [{ width: 595, height: 842 }], headersRowNo: 1,
  output: { isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true, fileNamePattern: '', passwordProtection: null },
  splitButtonSelection: null, excel, email: null, ...extra,
} as TemplateDetail);

const setup = () => ({ client: new QueryClient({ defaultOptions: { mutations: { retry: false } } }), store: configureStore({ reducer: { wizard } }) });

afterEach(() => vi.restoreAllMocks());

describe("the wizard's template in the query cache", () => {
  it('takes a new copy from the server; the wizard keeps its id and counts the rows of its sheet', () => {
    const { client, store } = setup();
    store.dispatch(templateReceived(template(), client));
    expect(wizardDetailNow(ID, client)?.name).toBe('letter.pdf');
    expect(store.getState().wizard).toMatchObject({ templateId: ID, rowsToGenerateCount: 20 });
    expect(wizardDetailNow(null, client)).toBeNull();
  });

  it('unlocks the cached template and closes the decrypt dialog', () => {
    const { client, store } = setup();
    store.dispatch(templateReceived(template({ isEncrypted: true }), client));
    expect(store.getState().wizard.openEncryptionDialog).toBe(true);
    patchTemplateDetail(ID, { isEncrypted: false }, client);
    store.dispatch(templateUnlocked());
    expect(wizardDetailNow(ID, client)?.isEncrypted).toBe(false);
    expect(store.getState().wizard.openEncryptionDialog).toBe(false);
  });

  it('puts another spreadsheet into the cached template and starts the row choice afresh', () => {
    const { client, store } = setup();
    store.dispatch(templateReceived(template(), client));
    store.dispatch(rowSelectionChanged({ mode: 'specific', specificRows: '2, 4-6' }));
    expect(store.getState().wizard.rowsToGenerateCount).toBe(4);
    const other: ExcelMeta = { ...excel, excelName: 'more.xlsx', totalRowCount: 50, lastRow: 51 };
    store.dispatch(sheetReceived(ID, other, client));
    expect(wizardDetailNow(ID, client)).toMatchObject({ excel: { excelName: 'more.xlsx' }, excelName: 'more.xlsx' });
    expect(store.getState().wizard).toMatchObject({ rowsToGenerateCount: 50, mergeSpecificRows: '' });
    store.dispatch(sheetReceived(ID, null, client));
    expect(wizardDetailNow(ID, client)?.excel).toBeNull();
    expect(store.getState().wizard.rowsToGenerateCount).toBe(0);
  });

  it('shows saved output settings at once and the old ones again when the server refuses', async () => {
    const { client, store } = setup();
    store.dispatch(templateReceived(template(), client));
    let refuse: (error: unknown) => void = () => undefined;
    vi.spyOn(api, 'call').mockReturnValue(new Promise((_, reject) => (refuse = reject)) as never);
    const change = showOutputChange(ID, { isCombinedOutput: true }, client);
    // At once, in the same event as the click: a controlled radio would flick back otherwise.
    expect(wizardDetailNow(ID, client)?.output.isCombinedOutput).toBe(true);
    const saving = new MutationObserver(client, outputMutation(client)).mutate(change!);
    refuse(new ApiError({ status: 409, code: 'template/merge-in-progress', message: 'busy' }));
    await expect(saving).rejects.toBeInstanceOf(ApiError);
    expect(wizardDetailNow(ID, client)?.output.isCombinedOutput).toBe(false);
  });

  it("takes the server's copy of the output settings once saved", async () => {
    const { client, store } = setup();
    store.dispatch(templateReceived(template(), client));
    const normalised = { ...template().output, isCombinedOutput: true, fileNamePattern: '{{First}}' };
    vi.spyOn(api, 'call').mockResolvedValue(template({ output: normalised }) as never);
    await new MutationObserver(client, outputMutation(client)).mutate(showOutputChange(ID, { isCombinedOutput: true, fileNamePattern: '{{First}} ' }, client)!);
    expect(wizardDetailNow(ID, client)?.output).toEqual(normalised);
  });
});
