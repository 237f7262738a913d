/**
 * A PDF as LibreOffice writes it (every stream's /Length an indirect object) whose page content's
 * zlib data ends in a carriage return: pdf-lib's parser drops that byte. The documents Sheaf writes
 * from such a PDF (a batch cut at its rows, a stamped batch, a protected document) keep the page whole.
 */
import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { zlibSync } from 'fflate';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { decryptPdf, encryptPdf } from '../security/index.ts';
import { concatBytes } from './bytes.ts';
import { openBatchPdf } from './split.ts';

const encoder = new TextEncoder();

/** The page's text and its zlib data, the first whose last byte is 0x0D (the checksum's low byte). */
function contentEndingInCarriageReturn(): { text: string; data: Uint8Array } {
  for (let k = 0; ; k++) {
    const text = `BT /F1 24 Tf 72 720 Td (Hello ${k}) Tj ET`;
    const data = zlibSync(encoder.encode(text));
    if (data[data.length - 1] === 0x0d) return { text, data };
  }
}

/** A one-page PDF in LibreOffice's shape: indirect /Length, the page at destination SheafRow0. */
function libreOfficeLikePdf(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let offset = 0;
  const push = (bytes: Uint8Array | string) => {
    const chunk = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
    parts.push(chunk);
    offset += chunk.length;
  };
  const object = (number: number, ...body: Array<string | Uint8Array>) => {
    offsets[number] = offset;
    push(`${number} 0 obj\n`);
    for (const piece of body) push(piece);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R /Names << /Dests << /Names [(SheafRow0) [3 0 R /XYZ 0 792 0]] >> >> >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Contents 4 0 R >>');
  object(4, '<< /Length 5 0 R /Filter /FlateDecode >>\nstream\n', data, '\nendstream');
  object(5, String(data.length));
  object(6, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const xref = offset;
  push(`xref\n0 7\n0000000000 65535 f \n${offsets.slice(1).map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return concatBytes(parts);
}

/** The first page's content, decoded (throws when the stream is cut short). */
async function pageText(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const stream = doc.getPage(0).node.lookup(PDFName.of('Contents'));
  if (!(stream instanceof PDFRawStream)) throw new Error('no content stream');
  return new TextDecoder().decode(inflateSync(stream.contents));
}

describe('streams of LibreOffice PDFs ending in a carriage return', () => {
  const { text, data } = contentEndingInCarriageReturn();
  const pdf = libreOfficeLikePdf(data);

  it('stay whole in a document cut from the batch', async () => {
    const document = (await openBatchPdf(pdf, 1)).document(0);
    expect(await pageText(document)).toBe(text);
  });

  it('stay whole in a protected copy of the PDF', async () => {
    const protectedPdf = encryptPdf(pdf, { userPassword: 'pw', ownerPassword: 'owner' });
    expect(await pageText(decryptPdf(protectedPdf, 'pw'))).toBe(text);
  });
});
