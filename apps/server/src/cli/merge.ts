/**
 * `sheaf merge TEMPLATE DATA --placeholders FILE.json --out OUT`: the whole engine from a terminal.
 * OUT ending in .zip gets one PDF per row; OUT ending in .pdf with --combined gets one document.
 * A Word template (TEMPLATE.docx, .rtf, ...) needs no placeholders: merge-word.ts.
 */
import { Command, Option } from 'commander';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PlaceholderListSchema, type RowSelection } from '@sheaf/shared';
import { availableParallelism } from 'node:os';
import { readNamedFiles } from './files.ts';
import { formatBytes, invalidInput, parseOptions, passwordProtectionOf, positiveInteger, readInput, seconds, type MergeFlags } from './merge-flags.ts';
import { isWordTemplateFile, runWordMerge } from './merge-word.ts';
import { progressBar } from './progress.ts';

const PARALLEL_MIN_DOCUMENTS = 64;

export function mergeCommand(setExitCode: (code: number) => void): Command {
  return new Command('merge')
    .description('Fill a PDF or Word template from spreadsheet rows: one document per row (.zip) or one combined document (--combined).')
    .argument('<template>', 'template: a PDF, or a Word document (.docx, .dotx, .docm, .dotm, .doc, .dot, .rtf, .txt, .xml, .odt, .fodt)')
    .argument('<data>', 'spreadsheet: .xlsx, .xlsm, .xls, .ods or .csv')
    .option('--placeholders <file>', 'PDF templates: JSON array of placeholders (see README)')
    .requiredOption('--out <file>', 'output: a .zip of one document per row, or a .pdf (.docx) with --combined')
    .addOption(new Option('--output <type>', 'Word templates: the documents made (default pdf)').choices(['pdf', 'docx']))
    .option('--group-by <heading>', 'Word templates: rows sharing this column\'s value make one document')
    .option('--combined', 'one combined document instead of one per row')
    .option('--rows <list>', 'rows to merge, numbered as in Excel, e.g. "1, 3, 5-12"')
    .addOption(new Option('--header-row <n>', 'row number of the headings').default(1).argParser(positiveInteger))
    .option('--file-name <pattern>', 'file name pattern with column tags, e.g. "{{Last}}-{{First}}"')
    .option('--password-read <password>', 'password to open each PDF (column tags allowed)')
    .option('--password-modify <password>', 'password to change each PDF (column tags allowed)')
    .option('--template-password <password>', 'password of an encrypted template')
    .option('--flatten', 'flatten form fields instead of keeping them editable')
    .option('--repair', 'repair a damaged template instead of refusing it')
    .option('--placeholders-only', 'stamp the values on blank pages of the template size')
    .option('--no-compress', 'keep the template bytes as they are and do not compress the added content')
    .option('--watermark <text>', 'stamp this text across every page')
    .option('--fonts <dir>', 'folder of .ttf/.otf fonts; a font is named by its file name without extension')
    .option('--images <dir>', 'folder of .png/.jpg images that image placeholders name')
    .action(async function (this: Command, templatePath: string, dataPath: string, flags: MergeFlags) {
      if (isWordTemplateFile(templatePath)) {
        setExitCode(await runWordMerge(templatePath, dataPath, flags));
        return;
      }
      // A usage error (exit 2), as when the option was required for every template.
      if (flags.placeholders === undefined) this.error("error: required option '--placeholders <file>' not specified (a PDF template needs it)");
      for (const [given, flag] of [[flags.output, '--output'], [flags.groupBy, '--group-by']] as const) {
        if (given !== undefined) throw invalidInput(`${flag} applies to Word templates only`);
      }
      setExitCode(await runMerge(templatePath, dataPath, { ...flags, placeholders: flags.placeholders }));
    });
}

async function runMerge(templatePath: string, dataPath: string, flags: MergeFlags & { placeholders: string }): Promise<number> {
  const extension = path.extname(flags.out).toLowerCase();
  if (flags.combined && extension !== '.pdf') throw invalidInput('--out must end in .pdf with --combined');
  if (!flags.combined && extension !== '.zip') throw invalidInput('--out must end in .zip (one PDF per row), or use --combined with a .pdf');

  // Untrusted bytes are read first in a worker with a deadline and a memory cap (it also asks for a
  // missing template password and refuses wrong types). The worker loads its own copy of the engine:
  // started before anything else loads here (only the small guard module first), so both loads run
  // at once, on two cores, and the check is done about when this thread is ready to merge.
  const [templateBytes, { checkTemplateSafely }] = await Promise.all([readInput(templatePath), import('@sheaf/engine/guarded')]);
  const checked = checkTemplateSafely({ bytes: templateBytes, password: flags.templatePassword, repair: Boolean(flags.repair) });
  checked.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  // The engine (pdf-lib, fontkit, SheetJS) takes a while to load: only when a merge runs, not for --help.
  const { loadBundledFallbackFonts, mergeDocumentsInParallel, useNativeCrypto, useNativeZlib } = await import('@sheaf/engine/node');
  const [dataBytes, placeholderText, fallbackFonts, fonts, images] = await Promise.all([
    readInput(dataPath),
    readFile(flags.placeholders, 'utf8').catch(() => {
      throw invalidInput(`cannot read ${flags.placeholders}`);
    }),
    loadBundledFallbackFonts(),
    flags.fonts ? readNamedFiles(flags.fonts, ['.ttf', '.otf'], 'font') : new Map<string, Uint8Array>(),
    flags.images ? readNamedFiles(flags.images, ['.png', '.jpg', '.jpeg'], 'image') : new Map<string, Uint8Array>(),
  ]);
  const placeholders = parsePlaceholders(placeholderText, flags.placeholders);
  const [{ decryptPdf, inspectEncryption, prepareMerge, readSheet }, { writeCombined, writeZip }] = await Promise.all([
    import('@sheaf/engine'),
    import('../merge-output/outputs.ts'),
  ]);
  useNativeCrypto();
  useNativeZlib();
  // The sheet is read while the template check finishes; a template error is still the one reported.
  const sheetOrError = attempt(() => readSheet(dataBytes, { headerRow: flags.headerRow, fileName: path.basename(dataPath) }));
  await checked;
  if ('error' in sheetOrError) throw sheetOrError.error;
  const { value: sheet } = sheetOrError;
  const encryption = inspectEncryption(templateBytes);
  const template = encryption ? decryptPdf(templateBytes, flags.templatePassword ?? '') : templateBytes;
  const rows: RowSelection = flags.rows === undefined ? { kind: 'all' } : { kind: 'specific', specificRowsNumbers: flags.rows };
  const options = parseOptions({
    isCombinedOutput: Boolean(flags.combined),
    isKeepFormOutput: !flags.flatten,
    isOnlyPlaceholdersOutput: Boolean(flags.placeholdersOnly),
    isTryRepair: Boolean(flags.repair),
    isCompressedOutput: flags.compress,
    fileNamePattern: flags.fileName,
    watermark: flags.watermark,
    passwordProtection: passwordProtectionOf(flags),
  });

  const input = { template, placeholders, sheet, rows, options, fonts, images, fallbackFonts };
  const merge = await prepareMerge(input);
  const started = Date.now();
  let summary: string;
  if (merge.isCombined) {
    const progress = progressBar(merge.rowCount, 'rows');
    const bytes = await writeCombined(flags.out, merge.combined());
    progress.finish(`${merge.rowCount} rows -> ${flags.out} (${formatBytes(bytes)}) in ${seconds(started)}`);
  } else {
    const progress = progressBar(merge.documentCount, 'documents');
    // Encrypting each document is CPU-bound (the key derivation of AES-256 R6): spread it over the
    // cores. Plain documents are made far faster than any disk writes them, so one thread is enough.
    const parallel = options.passwordProtection && merge.documentCount >= PARALLEL_MIN_DOCUMENTS && availableParallelism() > 1
      ? mergeDocumentsInParallel(input)
      : undefined;
    const { documents, bytes } = await writeZip(flags.out, parallel?.documents ?? merge.documents(), (done) => progress.tick(done));
    if (parallel) merge.issues.push(...parallel.issues);
    summary = `${documents} documents -> ${flags.out} (${formatBytes(bytes)}) in ${seconds(started)}`;
    progress.finish(summary);
  }
  for (const issue of merge.issues) process.stderr.write(`sheaf: skipped: ${issue.message}\n`);
  return merge.issues.length ? 3 : 0;
}

function attempt<T>(work: () => T): { value: T } | { error: unknown } {
  try {
    return { value: work() };
  } catch (error) {
    return { error };
  }
}

function parsePlaceholders(text: string, file: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidInput(`${file} is not valid JSON`);
  }
  const parsed = PlaceholderListSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidInput(`${file}: ${issue.path.join('.') || 'root'}: ${issue.message}`);
  }
  return parsed.data;
}
