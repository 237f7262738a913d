/**
 * The Word workload's inputs: a one-page A4 letter as DOCX (a header with the name, 18 paragraphs of
 * body text, a small table), its tags {{First}}, {{Last}}, {{Amount}} written in one run each so
 * docxtemplater and Sheaf read the same template, and the bench's rows (fixtures.ts).
 */
import { buildDocx, cell, p, r, row, table } from '../../packages/engine/src/docx/test-docx.ts';

const TEXT = 'This paragraph is ordinary body text of a mail-merge letter, long enough to wrap over two or three lines on an A4 page in the default font.';

/** A Word field as Word writes it (begin, instruction, separate, result, end). */
const field = (instruction: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

/** `pageOfN`: a footer "Page {PAGE} of {NUMPAGES}" too (PDF output then converts each batch twice; docs/word-templates.md). */
export function wordBenchTemplate(options: { pageOfN?: boolean } = {}): Uint8Array {
  const body = [
    p('Dear {{First}} {{Last}},'),
    p('Your balance on account is {{Amount}}. Thank you for your business.'),
    ...Array.from({ length: 16 }, (_, index) => p(`${index + 1}. ${TEXT}`)),
    table(row(cell(p('Customer')), cell(p('{{First}} {{Last}}'))), row(cell(p('Amount due')), cell(p('{{Amount}}')))),
    p('Kind regards,'),
    p('The Sheaf bench'),
  ].join('');
  const footer = options.pageOfN ? `<w:p>${r('Page ')}${field('PAGE')}${r(' of ')}${field('NUMPAGES')}</w:p>` : undefined;
  return buildDocx({ body, header: p('Statement for {{First}} {{Last}}'), footer });
}

/** A child's one line of result (the last stdout line). */
export interface WordPdfResult {
  tool: string;
  documents: number;
  /** Timed: from the template and rows in memory to every PDF made. */
  seconds: number;
  /** Filling the DOCX files (plain) or the whole merge but the conversions (Sheaf). */
  fillSeconds: number;
  convertSeconds: number;
  bytesOut: number;
  /** Untimed: starting LibreOffice before the timed run (Sheaf's warm pool). */
  warmUpSeconds?: number;
  note?: string;
}
