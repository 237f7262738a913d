/**
 * Damage the fuzz runs found, pinned as fixed cases: each template must be refused with a catalogue
 * error or give outputs that pass qpdf --check ("repaired or refused, never turned into broken
 * output", docs/merging.md#repair).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isSheafError } from '@sheaf/shared';
import {
  concat, contentStream, expectQpdfClean, fixture, mergeCombined, mergeSeparate, placeholder, qpdfCheck, rawPdf, scratch, table,
} from './test-support.ts';

const folder = scratch('damaged');
afterAll(() => folder.remove());

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

function request(template: Uint8Array, isTryRepair: boolean) {
  return { template, sheet: table(['Name'], [['DAMAGE-ROW']]), placeholders: [placeholder({ column: 'Name' })], options: { isTryRepair } };
}

/** Refused with a template/* catalogue error, or every output passes qpdf --check. */
async function expectRefusedOrSound(template: Uint8Array, isTryRepair: boolean): Promise<void> {
  try {
    const { documents } = await mergeSeparate(folder, request(template, isTryRepair));
    for (const document of documents) expectQpdfClean(document.file);
    expectQpdfClean((await mergeCombined(folder, request(template, isTryRepair))).file);
  } catch (error) {
    if (!isSheafError(error)) throw error;
    expect(error.code).toMatch(/^template\//);
  }
}

describe('damaged templates found by fuzzing', () => {
  it('one stray byte before the header', async () => {
    const template = concat([new Uint8Array([0]), fixture('corpus/classic-xref.pdf')]);
    expect(qpdfCheck(folder.write('shifted.pdf', template)).status).toBe(0);
    await expectRefusedOrSound(template, false);
  });

  it('a page’s shared /Resources object cut into the next object, with repair', async () => {
    const original = fixture('corpus/contents-array.pdf');
    const start = latin1(original).indexOf('5 0 obj\n') + 8;
    const template = concat([original.subarray(0, start), original.subarray(start + 71)]);
    await expectRefusedOrSound(template, true);
  });

  it('a page content stream with corrupt compressed data', async () => {
    const template = fixture('corpus/classic-xref.pdf').slice();
    const data = latin1(template).indexOf('stream\n') + 7 + 10;
    template[data] ^= 0xff;
    template[data + 1] ^= 0xff;
    expect(qpdfCheck(folder.write('bad-flate.pdf', template)).status).not.toBe(0);
    await expectRefusedOrSound(template, false);
  });

  /** A one-page template whose page content is `contents` (object 4 onwards hold `streams`). */
  function onePage(contents: string, streams: string[]): Uint8Array {
    return rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents ${contents} >>`,
      streams[0]!,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ...streams.slice(1),
    ]);
  }

  it('a /Contents array naming a missing object', async () => {
    const template = onePage('[4 0 R 9 0 R]', [contentStream('BT /F1 24 Tf 72 700 Td (CONTENTS-MISSING) Tj ET')]);
    expect(qpdfCheck(folder.write('missing-content.pdf', template)).status).not.toBe(0);
    await expectRefusedOrSound(template, false);
    await expectRefusedOrSound(template, true);
  });

  it('page content with an invalid hex string', async () => {
    const template = onePage('4 0 R', [contentStream('BT /F1 24 Tf 72 700 Td <4G> Tj (BAD-HEX) Tj ET')]);
    expect(qpdfCheck(folder.write('bad-hex.pdf', template)).status).not.toBe(0);
    await expectRefusedOrSound(template, false);
  });
});
