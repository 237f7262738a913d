import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@sheaf/shared';
import { uploadProblem } from './uploadChecks.ts';

describe('dropzone checks before upload', () => {
  it('accepts a PDF or word-processor template and every spreadsheet type, whatever the case of the extension', () => {
    expect(uploadProblem({ name: 'Letter.PDF', size: 10 }, 'template', MAX_UPLOAD_BYTES)).toBeNull();
    for (const name of ['a.docx', 'b.DOTX', 'c.docm', 'd.dotm', 'e.doc', 'f.dot', 'g.rtf', 'h.odt', 'i.fodt', 'j.txt', 'k.xml']) expect(uploadProblem({ name, size: 10 }, 'template', MAX_UPLOAD_BYTES)).toBeNull();
    for (const name of ['a.xlsx', 'b.XLSM', 'c.xls', 'd.ods', 'e.csv']) expect(uploadProblem({ name, size: 10 }, 'sheet', MAX_UPLOAD_BYTES)).toBeNull();
  });

  it('refuses other types with the catalogue code of the upload', () => {
    expect(uploadProblem({ name: 'letter.pages', size: 10 }, 'template', MAX_UPLOAD_BYTES)).toEqual({ code: 'template/wrong-type' });
    expect(uploadProblem({ name: 'rows.pdf', size: 10 }, 'sheet', MAX_UPLOAD_BYTES)).toEqual({ code: 'sheet/wrong-type' });
  });

  it('refuses empty files', () => {
    expect(uploadProblem({ name: 'a.pdf', size: 0 }, 'template', MAX_UPLOAD_BYTES)).toEqual({ code: 'template/empty' });
    expect(uploadProblem({ name: 'a.csv', size: 0 }, 'sheet', MAX_UPLOAD_BYTES)).toEqual({ code: 'sheet/empty-file' });
  });

  it('refuses files above the limit and names the limit in MB', () => {
    expect(uploadProblem({ name: 'a.pdf', size: MAX_UPLOAD_BYTES + 1 }, 'template', MAX_UPLOAD_BYTES)).toEqual({ code: 'template/too-large', params: { maxMb: 25 } });
    expect(uploadProblem({ name: 'a.pdf', size: MAX_UPLOAD_BYTES }, 'template', MAX_UPLOAD_BYTES)).toBeNull();
  });
});
