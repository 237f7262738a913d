/**
 * Builds DOCX fixtures in code (nothing binary is committed): content types, the main document and
 * any headers, footers, footnotes; and reads a filled document back as text for assertions. No
 * vitest import, so benchmarks can build fixtures too.
 */
import { strFromU8, unzipSync, zipSync, type Zippable } from 'fflate';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface DocxFixture {
  /** The w:body content (paragraphs, tables); a section with the header and footer is added. */
  body: string;
  header?: string;
  footer?: string;
  /** w:footnote elements' content: each string is one footnote's paragraphs. */
  footnotes?: string[];
  /** Replaces the content types (for "not a DOCX" cases). */
  contentTypes?: string;
  /** Main document content type; default a .docx's. */
  mainType?: string;
  extraParts?: Record<string, string | Uint8Array>;
}

const part = (root: string, content: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${root} xmlns:w="${W}" xmlns:r="${R}">${content}</${root}>`;

/** A paragraph of runs, each run one string (so a tag can be split at will). */
export const p = (...runs: string[]) => `<w:p>${runs.map((text) => r(text)).join('')}</w:p>`;
export const r = (text: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
export const cell = (...paragraphs: string[]) => `<w:tc>${paragraphs.join('')}</w:tc>`;
export const row = (...cells: string[]) => `<w:tr>${cells.join('')}</w:tr>`;
export const table = (...rows: string[]) => `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>${rows.join('')}</w:tbl>`;

export function buildDocx(fixture: DocxFixture): Uint8Array {
  const files: Zippable = {};
  const overrides = [`<Override PartName="/word/document.xml" ContentType="${fixture.mainType ?? `${TYPE}.document.main+xml`}"/>`];
  const rels: string[] = [];
  let sectPr = '';
  if (fixture.header !== undefined) {
    files['word/header1.xml'] = text(part('w:hdr', fixture.header));
    overrides.push(`<Override PartName="/word/header1.xml" ContentType="${TYPE}.header+xml"/>`);
    rels.push(`<Relationship Id="rIdH" Type="${REL}/header" Target="header1.xml"/>`);
    sectPr += '<w:headerReference w:type="default" r:id="rIdH"/>';
  }
  if (fixture.footer !== undefined) {
    files['word/footer1.xml'] = text(part('w:ftr', fixture.footer));
    overrides.push(`<Override PartName="/word/footer1.xml" ContentType="${TYPE}.footer+xml"/>`);
    rels.push(`<Relationship Id="rIdF" Type="${REL}/footer" Target="footer1.xml"/>`);
    sectPr += '<w:footerReference w:type="default" r:id="rIdF"/>';
  }
  if (fixture.footnotes) {
    const notes = fixture.footnotes.map((content, index) => `<w:footnote w:id="${index + 1}">${content}</w:footnote>`).join('');
    const separators = '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>';
    files['word/footnotes.xml'] = text(part('w:footnotes', separators + notes));
    overrides.push(`<Override PartName="/word/footnotes.xml" ContentType="${TYPE}.footnotes+xml"/>`);
    rels.push(`<Relationship Id="rIdN" Type="${REL}/footnotes" Target="footnotes.xml"/>`);
  }
  files['[Content_Types].xml'] = text(
    fixture.contentTypes ??
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.join('')}</Types>`,
  );
  files['_rels/.rels'] = text(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  files['word/_rels/document.xml.rels'] = text(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  );
  files['word/document.xml'] = text(part('w:document', `<w:body>${fixture.body}<w:sectPr>${sectPr}<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body>`));
  for (const [name, content] of Object.entries(fixture.extraParts ?? {})) files[name] = typeof content === 'string' ? text(content) : content;
  // [Content_Types].xml first, as Word writes it.
  const ordered: Zippable = { '[Content_Types].xml': files['[Content_Types].xml']! };
  for (const [name, data] of Object.entries(files)) ordered[name] = data;
  return zipSync(ordered, { level: 6 });
}

const text = (value: string) => new TextEncoder().encode(value);

/** The parts of a DOCX as text. */
export function readParts(docx: Uint8Array): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const [name, data] of Object.entries(unzipSync(docx))) parts[name] = strFromU8(data);
  return parts;
}

/** What a reader sees of a part: w:t texts joined, w:br as "\n", w:tab as "\t", paragraphs on their own lines. */
export function visibleText(xml: string): string {
  return xml
    .replace(/^<\?xml[^>]*\?>\s*/, '')
    .replace(/<w:br\/>/g, '\n')
    .replace(/<w:tab\/>/g, '\t')
    .replace(/<\/w:p>/g, '\n')
    .replace(/<w:instrText[^>]*>[\s\S]*?<\/w:instrText>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\n+$/, '');
}
