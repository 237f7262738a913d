/**
 * Finds the parts of an OOXML workbook: [Content_Types].xml names the workbook part (and tells xlsx
 * from xlsm, or a Word/PowerPoint file from a workbook); the workbook lists its sheets and the date
 * system; its relationships lead to the first sheet, the shared strings and the styles.
 */
import { SheafError } from '@sheaf/shared';
import { MAX_SMALL_PART_BYTES, corrupt, wrongType } from '../limits.ts';
import { decodePart, xmlElements } from './xml-elements.ts';
import { type ZipArchive, type ZipEntry, findEntry, readEntry } from './zip-archive.ts';

export interface WorkbookParts {
  readonly format: 'xlsx' | 'xlsm';
  /** The first sheet's part. */
  readonly sheet: ZipEntry;
  readonly sharedStrings?: ZipEntry;
  readonly styles?: ZipEntry;
  readonly date1904: boolean;
}

const WORKBOOK_TYPES: Record<string, 'xlsx' | 'xlsm'> = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml': 'xlsx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml': 'xlsx',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml': 'xlsm',
  'application/vnd.ms-excel.template.macroEnabled.main+xml': 'xlsm',
};
const DEFAULT_WORKBOOK = 'xl/workbook.xml';

export function locateWorkbook(zip: ZipArchive): WorkbookParts {
  const { path: workbookPath, format } = findWorkbookPart(zip);
  const workbookEntry = findEntry(zip, workbookPath);
  if (workbookEntry === undefined) throw wrongType();
  const workbook = readWorkbook(readXml(zip, workbookEntry));
  const folder = workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1);
  const relationships = readRelationships(zip, `${folder}_rels/${workbookPath.slice(folder.length)}.rels`);
  const sheetRelationship = relationships.find((relationship) => relationship.id === workbook.firstSheetId);
  if (sheetRelationship === undefined || /\/(chartsheet|dialogsheet)$/i.test(sheetRelationship.type)) {
    throw new SheafError('sheet/empty-sheet');
  }
  const sheet = findEntry(zip, resolveTarget(folder, sheetRelationship.target));
  if (sheet === undefined) throw corrupt('the first sheet is missing');
  const partOfType = (suffix: string, fallback: string): ZipEntry | undefined => {
    const relationship = relationships.find((candidate) => candidate.type.endsWith(suffix));
    return findEntry(zip, relationship ? resolveTarget(folder, relationship.target) : `${folder}${fallback}`);
  };
  return {
    format,
    sheet,
    sharedStrings: partOfType('/sharedStrings', 'sharedStrings.xml'),
    styles: partOfType('/styles', 'styles.xml'),
    date1904: workbook.date1904,
  };
}

function findWorkbookPart(zip: ZipArchive): { path: string; format: 'xlsx' | 'xlsm' } {
  const contentTypes = findEntry(zip, '[Content_Types].xml');
  if (contentTypes === undefined) throw wrongType();
  for (const element of xmlElements(readXml(zip, contentTypes))) {
    if (element.name !== 'Override') continue;
    const format = WORKBOOK_TYPES[element.attributes.get('ContentType')?.trim() ?? ''];
    const part = element.attributes.get('PartName');
    if (format !== undefined && part) return { path: part.replace(/^\//, ''), format };
  }
  // Some writers omit the Override; the conventional location still identifies a workbook.
  if (findEntry(zip, DEFAULT_WORKBOOK)) return { path: DEFAULT_WORKBOOK, format: 'xlsx' };
  throw wrongType(); // a Word or PowerPoint file, an .xlsb, or another OOXML package
}

function readWorkbook(xml: string): { firstSheetId: string | undefined; date1904: boolean } {
  let firstSheetId: string | undefined;
  let date1904 = false;
  for (const element of xmlElements(xml)) {
    if (element.closing) continue;
    if (element.name === 'workbookPr') {
      const value = element.attributes.get('date1904')?.trim().toLowerCase();
      date1904 = value === '1' || value === 'true';
    } else if (element.name === 'sheet' && firstSheetId === undefined) {
      firstSheetId = element.attributes.get('id') ?? '';
    }
  }
  return { firstSheetId, date1904 };
}

interface Relationship {
  readonly id: string;
  readonly type: string;
  readonly target: string;
}

function readRelationships(zip: ZipArchive, path: string): Relationship[] {
  const entry = findEntry(zip, path);
  if (entry === undefined) return [];
  const relationships: Relationship[] = [];
  for (const element of xmlElements(readXml(zip, entry))) {
    if (element.name !== 'Relationship' || element.closing) continue;
    if (element.attributes.get('TargetMode') === 'External') continue;
    relationships.push({
      id: element.attributes.get('Id') ?? '',
      type: element.attributes.get('Type') ?? '',
      target: element.attributes.get('Target') ?? '',
    });
  }
  return relationships;
}

/** A relationship target, relative to the source part's folder unless it starts with '/'. */
function resolveTarget(folder: string, target: string): string {
  const segments = target.startsWith('/') ? [] : folder.split('/').filter(Boolean);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

export function readXml(zip: ZipArchive, entry: ZipEntry): string {
  return decodePart(readEntry(zip, entry, MAX_SMALL_PART_BYTES));
}
