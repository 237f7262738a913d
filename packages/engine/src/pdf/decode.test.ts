import { deflateSync, createDeflate } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { PDFContext, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { SheafError } from '@sheaf/shared';
import { decodeBudget, decodeStreamWithin } from './decode.ts';
import { loadTemplate } from './template.ts';

/** `prefix`, then spaces up to `total` bytes, deflated in 1 MB steps so the test never holds them. */
async function deflatedSpaces(total: number, prefix = ''): Promise<Uint8Array> {
  const chunk = Buffer.alloc(1 << 20, 0x20);
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (data: Buffer) => parts.push(data));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  deflate.write(prefix);
  for (let left = total - prefix.length; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(parts);
}

/** A one-page PDF whose page content is `compressed` (FlateDecode). */
async function pdfWithContent(compressed: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const ref = doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: compressed.length }), compressed));
  page.node.set(PDFName.of('Contents'), ref);
  return doc.save({ useObjectStreams: false });
}

/** A hand-written PDF whose catalog sits in an object stream of `size` bytes (pdf-lib expands those as it parses). */
async function pdfWithObjectStream(size: number): Promise<Uint8Array> {
  // Header "1 0": object 1 at offset 0 from /First (4), then the catalog, then spaces.
  const data = await deflatedSpaces(size, '1 0 << /Type /Catalog /Pages 2 0 R >>');
  const head = Buffer.from([
    '%PDF-1.7',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    `4 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >> stream`,
    '',
  ].join('\n'), 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\ntrailer << /Size 5 /Root 1 0 R >>\n%%EOF\n', 'latin1');
  return Buffer.concat([head, data, tail]);
}

function flateStream(data: Uint8Array): PDFRawStream {
  return PDFRawStream.of(PDFContext.create().obj({ Filter: 'FlateDecode' }), deflateSync(data));
}

describe('decoding a template within its budget', () => {
  it('refuses a page content of 300 MB of spaces in a 300 KB file, fast and without holding it', async () => {
    const bytes = await pdfWithContent(await deflatedSpaces(300 * 1_048_576));
    expect(bytes.length).toBeLessThan(400_000);
    const started = performance.now();
    const error = await loadTemplate(bytes, { repair: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SheafError);
    expect((error as SheafError).code).toBe('template/too-large-when-unpacked');
    expect((error as SheafError).params).toEqual({ maxMb: Math.round(decodeBudget(bytes.length).total / 1_048_576) });
    // Decoding it whole took seconds; the ratio check stops it after a few megabytes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses an object stream of 300 MB before pdf-lib expands it', async () => {
    const bytes = await pdfWithObjectStream(300 * 1_048_576);
    const started = performance.now();
    await expect(loadTemplate(bytes, { repair: true })).rejects.toMatchObject({ code: 'template/too-large-when-unpacked' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reads an ordinary content stream exactly as before', () => {
    const text = Buffer.from('BT /F1 12 Tf 72 712 Td (Hello, world) Tj ET\n'.repeat(50_000));
    const budget = decodeBudget(100_000);
    expect(Buffer.from(decodeStreamWithin(flateStream(text), budget)).equals(text)).toBe(true);
    expect(budget.left).toBe(budget.total - text.length);
  });

  it('charges every stream to one budget per document', () => {
    // Random bytes do not compress: each stream is plausible alone, the two together are over the budget.
    const part = randomBytes(6 * 1_048_576);
    const budget = { left: 10 * 1_048_576, total: 10 * 1_048_576 };
    decodeStreamWithin(flateStream(part), budget);
    expect(() => decodeStreamWithin(flateStream(part), budget)).toThrowError(expect.objectContaining({ code: 'template/too-large-when-unpacked' }));
  });

  it('scales the document budget with the file: 250 times its size, at least 64 MB, at most 512 MB', () => {
    expect(decodeBudget(1_000).total).toBe(64 * 1_048_576);
    expect(decodeBudget(1_048_576).total).toBe(250 * 1_048_576);
    expect(decodeBudget(25 * 1_048_576).total).toBe(512 * 1_048_576);
  });
});
