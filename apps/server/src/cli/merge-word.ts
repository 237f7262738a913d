/**
 * `sheaf merge TEMPLATE.docx DATA --out OUT` (docs/word-templates.md#command-line): a Word template's
 * merge from a terminal. The fields are in the document, so no placeholders file. OOXML files are
 * read by the engine as they are; the other types are converted to DOCX first by LibreOffice, which
 * also makes PDF output in batches, as the server does (merge-output/word-documents.ts).
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { SheafError, type RowSelection } from '@sheaf/shared';
import { isWordSourceType, libreOfficeInstalled, OfficeConverter } from '../adapters/office/index.ts';
import { formatBytes, invalidInput, parseOptions, passwordProtectionOf, readInput, seconds, type MergeFlags } from './merge-flags.ts';
import { progressBar } from './progress.ts';

const CONVERSIONS = Math.min(2, availableParallelism());

/** The template types taken, as the server's uploads (docs/word-templates.md#uploading). */
const WORD_TEMPLATE_TYPES = new Set(['docx', 'dotx', 'docm', 'dotm', 'doc', 'dot', 'rtf', 'txt', 'xml', 'odt', 'fodt']);
/** Read by the engine without conversion (a .dotx/.docm/.dotm becomes a .docx without macros there). */
const OOXML_TYPES = new Set(['docx', 'dotx', 'docm', 'dotm']);

/** Flags of PDF templates that mean nothing for a Word template: refused rather than silently ignored. */
const PDF_TEMPLATE_FLAGS = [
  ['placeholders', '--placeholders'],
  ['templatePassword', '--template-password'],
  ['flatten', '--flatten'],
  ['repair', '--repair'],
  ['placeholdersOnly', '--placeholders-only'],
  ['fonts', '--fonts'],
  ['images', '--images'],
] as const satisfies readonly (readonly [keyof MergeFlags, string])[];

const typeOf = (file: string) => path.extname(file).slice(1).toLowerCase();

export function isWordTemplateFile(file: string): boolean {
  return WORD_TEMPLATE_TYPES.has(typeOf(file));
}

export async function runWordMerge(templatePath: string, dataPath: string, flags: MergeFlags): Promise<number> {
  for (const [key, flag] of PDF_TEMPLATE_FLAGS) {
    if (flags[key] !== undefined) throw invalidInput(`${flag} applies to PDF templates only (a Word template's fields are in the document)`);
  }
  if (!flags.compress) throw invalidInput('--no-compress applies to PDF templates only');
  const output = flags.output ?? 'pdf';
  const combinedExtension = `.${output}`;
  const extension = path.extname(flags.out).toLowerCase();
  if (flags.combined && extension !== combinedExtension) throw invalidInput(`--out must end in ${combinedExtension} with --combined and --output ${output}`);
  if (!flags.combined && extension !== '.zip') throw invalidInput(`--out must end in .zip (one ${output.toUpperCase()} per row), or use --combined with a ${combinedExtension}`);
  const passwordProtection = passwordProtectionOf(flags);
  // Refused, not ignored: whoever asked for a password expects files nobody opens without it.
  if (passwordProtection && output === 'docx') throw invalidInput('--password-read and --password-modify protect PDF output only; DOCX files cannot be protected (use --output pdf)');
  const options = parseOptions({ isCombinedOutput: Boolean(flags.combined), fileNamePattern: flags.fileName, watermark: flags.watermark, passwordProtection });

  const [templateBytes, dataBytes] = await Promise.all([readInput(templatePath), readInput(dataPath)]);
  const [{ prepareWordMerge, readSheet }, { useNativeCrypto, useNativeZlib }] = await Promise.all([import('@sheaf/engine'), import('@sheaf/engine/node')]);
  // Stamped documents' pages and passwords: Node's native zlib and crypto, as the server's merge jobs use.
  useNativeZlib();
  useNativeCrypto();
  // The spreadsheet is read before LibreOffice starts: a bad one is refused in a moment.
  const sheet = readSheet(dataBytes, { headerRow: flags.headerRow, fileName: path.basename(dataPath) });
  const rows: RowSelection = flags.rows === undefined ? { kind: 'all' } : { kind: 'specific', specificRowsNumbers: flags.rows };
  let office: OfficeConverter | undefined;
  const converter = () => {
    if (!libreOfficeInstalled()) throw new SheafError('template/office-unavailable');
    // One LibreOffice per core, at most two: PDF batches convert side by side (merge-output/word-documents.ts).
    return (office ??= new OfficeConverter({ size: CONVERSIONS }));
  };
  const toPdf = (docx: Uint8Array) => converter().toPdf(docx);
  try {
    const type = typeOf(templatePath);
    if (templateBytes.length === 0) throw new SheafError('template/empty');
    const docx = OOXML_TYPES.has(type) || !isWordSourceType(type) ? templateBytes : await converter().toDocx(templateBytes, type);
    const merge = prepareWordMerge({
      template: docx,
      sheet,
      rows,
      groupBy: flags.groupBy,
      fileNamePattern: options.fileNamePattern,
      output,
      isCombinedOutput: options.isCombinedOutput,
      passwordProtection: options.passwordProtection,
      watermark: options.watermark,
    });
    const [{ writeCombined, writeZip }, { wordCombined, wordDocuments }] = await Promise.all([
      import('../merge-output/outputs.ts'),
      import('../merge-output/word-documents.ts'),
    ]);
    const started = Date.now();
    if (merge.isCombined) {
      const progress = progressBar(merge.rowCount, 'rows');
      const bytes = await writeCombined(flags.out, [await wordCombined(merge, toPdf)]);
      progress.finish(`${merge.rowCount} rows -> ${flags.out} (${formatBytes(bytes)}) in ${seconds(started)}`);
    } else {
      const progress = progressBar(merge.documentCount, 'documents');
      const { documents, bytes } = await writeZip(flags.out, wordDocuments(merge, toPdf, 0, CONVERSIONS), (done) => progress.tick(done));
      progress.finish(`${documents} documents -> ${flags.out} (${formatBytes(bytes)}) in ${seconds(started)}`);
    }
    return 0;
  } finally {
    await office?.close();
  }
}
