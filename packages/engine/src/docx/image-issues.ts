/**
 * Rows whose picture tags cannot be printed (docs/word-templates.md#images-and-qr-codes), as for
 * PDF templates' placeholders (merge/index.ts): an image cell naming no supplied image
 * (merge/image-missing), a text longer than a QR code holds (merge/qr-too-long). Such a row's
 * document is skipped and reported; the others go on. Empty cells print nothing and are fine.
 */
import { SheafError } from '@sheaf/shared';
import { imageNameResolver } from '../merge/image-names.ts';
import type { RowIssue } from '../merge/types.ts';
import { fitsQrCode, QR_MAX_BYTES } from '../qr/index.ts';
import type { SheetData } from '../sheet/types.ts';
import type { DocxField } from './compile.ts';
import { docxColumnIndex } from './prepare.ts';

/** The problems of one document's rows; undefined when the template has no picture tags. */
export type PictureIssues = (group: readonly number[]) => RowIssue[];

export function pictureIssuesOf(fields: readonly DocxField[], sheet: SheetData, images: ReadonlyMap<string, Uint8Array> | undefined): PictureIssues | undefined {
  const pictures = new Map<string, { kind: DocxField['kind']; column: number }>();
  for (const field of fields) {
    const column = field.kind === 'image' || field.kind === 'qr' ? docxColumnIndex(field, sheet.headers) : undefined;
    if (column !== undefined) pictures.set(`${field.kind} ${column}`, { kind: field.kind, column });
  }
  if (pictures.size === 0) return undefined;
  const resolve = imageNameResolver(images ?? new Map());
  return (group) => {
    const issues: RowIssue[] = [];
    for (const row of group) {
      const rowNumber = sheet.rowNumber(row);
      const report = (error: SheafError) => issues.push({ rowNumber, code: error.code, message: error.message.startsWith('Row ') ? error.message : `Row ${rowNumber}: ${error.message}` });
      for (const { kind, column } of pictures.values()) {
        const cell = sheet.text(row, column);
        if (cell === '') continue;
        if (kind === 'image' && resolve(cell) === undefined) report(new SheafError('merge/image-missing', { row: rowNumber, image: cell }));
        if (kind === 'qr' && !fitsQrCode(cell, 'M')) report(new SheafError('merge/qr-too-long', { length: cell.length, max: QR_MAX_BYTES.M, level: 'M' }));
      }
    }
    return issues;
  };
}
