/**
 * The Free plan's watermark on Word output (docs/word-templates.md#watermark): a text watermark as
 * Word itself makes one (Design > Watermark), a VML WordArt shape named PowerPlusWaterMarkObject,
 * light grey, diagonal, behind the text, centred on the page's margins, in the headers. Headers
 * print on every page, so the watermark does too, in the DOCX and in the PDF LibreOffice prints.
 * Applied to the template's parts once per merge, before they are compiled.
 */
import { resolvePartTarget, type DocxPart } from './archive.ts';
import { attribute, escapeAttribute, notDocx, tokenize, type Token } from './xml.ts';

const HEADER_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEADER_RELATIONSHIP = `${RELATIONSHIPS}/header`;
const MAIN_TYPE = /(wordprocessingml\.(document|template)|ms-word\.(document|template)\.macroEnabled(Template)?)\.main\+xml$/;
/** The namespaces of the shape, declared on a header's root where it lacks them. */
const SHAPE_NAMESPACES: Record<string, string> = {
  v: 'urn:schemas-microsoft-com:vml',
  o: 'urn:schemas-microsoft-com:office:office',
  w10: 'urn:schemas-microsoft-com:office:word',
};
const W_NAMESPACE = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

type HeaderKind = 'default' | 'first' | 'even';

/** A section's page: its size and margins in twips (Word's defaults: Letter, 1 inch). */
interface PageArea {
  width: number;
  height: number;
}

const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/**
 * The parts with `text` as a watermark: added to every header the sections use, and a header holding
 * only the watermark referenced by each section that would otherwise print no header of a kind it
 * uses (default always, first with a title page, even with even-and-odd headers).
 */
export function withWatermark(parts: readonly DocxPart[], text: string): DocxPart[] {
  const byName = new Map(parts.map((part) => [part.name.toLowerCase(), part]));
  const read = (part: DocxPart) => utf8.decode(part.data);
  const contentTypes = byName.get('[content_types].xml');
  if (!contentTypes) throw notDocx('no [Content_Types].xml');
  const typesXml = read(contentTypes);
  const mainName = overrides(typesXml).find(([, type]) => MAIN_TYPE.test(type))?.[0];
  const main = mainName === undefined ? undefined : byName.get(mainName.toLowerCase());
  if (!main) throw notDocx('no Word main document');

  const folder = main.name.slice(0, main.name.lastIndexOf('/') + 1);
  const relationshipsName = `${folder}_rels/${main.name.slice(folder.length)}.rels`;
  const relationshipsPart = byName.get(relationshipsName.toLowerCase());
  const relationshipsXml = relationshipsPart ? read(relationshipsPart) : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`;
  const relationships = relationshipsOf(relationshipsXml, relationshipsName, folder);
  const settings = relationships.find((relationship) => relationship.type.endsWith('/settings'));
  const settingsPart = settings && byName.get(settings.part.toLowerCase());
  const evenAndOdd = settingsPart ? isOn(/<w:evenAndOddHeaders\b([^>]*)>/.exec(read(settingsPart))?.[1]) : false;

  const ids = new Set(relationships.map((relationship) => relationship.id));
  const newId = unique('rIdSheafWatermark', (id) => ids.has(id));
  const newPart = unique(`${folder}sheaf-watermark.xml`, (name) => byName.has(name.toLowerCase()));
  const sections = referenceSections(read(main), main.name, evenAndOdd, newId);
  const page = sections.page;
  const shape = (index: number) => watermarkRun(text, page, index);

  const headerParts = new Set(relationships.filter((relationship) => relationship.type === HEADER_RELATIONSHIP && sections.referenced.has(relationship.id)).map((relationship) => relationship.part.toLowerCase()));
  let shapes = 0;
  const out = parts.map((part): DocxPart => {
    const name = part.name.toLowerCase();
    if (part === main) return { name: part.name, data: encoder.encode(sections.xml) };
    if (headerParts.has(name)) return { name: part.name, data: encoder.encode(withShape(read(part), part.name, shape(++shapes))) };
    if (!sections.needsNewHeader) return part;
    if (part === contentTypes) return { name: part.name, data: encoder.encode(typesXml.replace(/<\/(\w+:)?Types>\s*$/, (end) => `<Override PartName="/${newPart}" ContentType="${HEADER_TYPE}"/>${end}`)) };
    if (part === relationshipsPart) return { name: part.name, data: encoder.encode(withRelationship(relationshipsXml, newId, newPart.slice(folder.length))) };
    return part;
  });
  if (sections.needsNewHeader) {
    out.push({ name: newPart, data: encoder.encode(watermarkHeader(shape(++shapes))) });
    if (!relationshipsPart) out.push({ name: relationshipsName, data: encoder.encode(withRelationship(relationshipsXml, newId, newPart.slice(folder.length))) });
  }
  return out;
}

/** The part names and content types of the package's overrides. */
function overrides(typesXml: string): [string, string][] {
  const found: [string, string][] = [];
  for (const token of tokenize(typesXml, '[Content_Types].xml')) {
    if ((token.kind !== 'empty' && token.kind !== 'open') || !/(^|:)Override$/.test(token.name)) continue;
    const name = attribute(token.raw, 'PartName', '[Content_Types].xml');
    const type = attribute(token.raw, 'ContentType', '[Content_Types].xml');
    if (name && type) found.push([name.replace(/^\/+/, ''), type]);
  }
  return found;
}

interface Relationship {
  id: string;
  type: string;
  /** The part it points at, from the package root. */
  part: string;
}

function relationshipsOf(xml: string, partName: string, folder: string): Relationship[] {
  const found: Relationship[] = [];
  for (const token of tokenize(xml, partName)) {
    if ((token.kind !== 'empty' && token.kind !== 'open') || !/(^|:)Relationship$/.test(token.name)) continue;
    const [id, type, target] = ['Id', 'Type', 'Target'].map((name) => attribute(token.raw, name, partName));
    if (!id || !type || !target || attribute(token.raw, 'TargetMode', partName) === 'External') continue;
    found.push({ id, type, part: resolvePartTarget(folder, target) });
  }
  return found;
}

function withRelationship(xml: string, id: string, target: string): string {
  return xml.replace(/<\/(\w+:)?Relationships>\s*$/, (end) => `<Relationship Id="${id}" Type="${HEADER_RELATIONSHIP}" Target="${escapeAttribute(target)}"/>${end}`);
}

function unique(base: string, taken: (candidate: string) => boolean): string {
  let candidate = base;
  for (let count = 2; taken(candidate); count++) candidate = base.replace(/(\.xml)?$/, `${count}$1`);
  return candidate;
}

/** An on/off property: present and not w:val="0"/"false"/"off". */
function isOn(attributes: string | undefined): boolean {
  if (attributes === undefined) return false;
  const value = /w:val\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1];
  return value === undefined || !['0', 'false', 'off'].includes(value);
}

interface Sections {
  xml: string;
  /** Relationship ids of the headers the sections print (all of them get the watermark). */
  referenced: Set<string>;
  /** Some section prints a kind of header nobody before it had: it refers to the watermark's own header. */
  needsNewHeader: boolean;
  page: PageArea;
}

/**
 * Every section (w:sectPr, not those of tracked changes) refers to a header of each kind it prints:
 * where it relied on inheriting one, the previous section's is named explicitly (what Word shows
 * anyway); where there was none to inherit, the watermark's own header (`newId`).
 */
function referenceSections(xml: string, partName: string, evenAndOdd: boolean, newId: string): Sections {
  const tokens = tokenize(xml, partName);
  // The r: prefix of the references added, declared on each where the root does not declare it.
  const rootDeclaresR = /<w:document\b[^>]*\sxmlns:r\s*=/.test(xml);
  const rNamespace = rootDeclaresR ? '' : ` xmlns:r="${RELATIONSHIPS}"`;
  const referenced = new Set<string>();
  const inherited = new Map<HeaderKind, string>();
  let needsNewHeader = false;
  let page: PageArea | undefined;
  let changeDepth = 0;
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.name === 'w:sectPrChange') changeDepth += token.kind === 'open' ? 1 : token.kind === 'close' ? -1 : 0;
    if (changeDepth > 0 || token.name !== 'w:sectPr' || token.kind === 'close') {
      out.push(token.raw);
      continue;
    }
    const end = token.kind === 'empty' ? index : sectionEnd(tokens, index);
    const body = tokens.slice(index + 1, end);
    const own = new Map<HeaderKind, string>();
    for (const child of body) {
      if (child.name !== 'w:headerReference') continue;
      const kind = (attribute(child.raw, 'w:type', partName) ?? 'default') as HeaderKind;
      const id = attribute(child.raw, 'r:id', partName);
      if (id) own.set(kind, id);
    }
    const titlePage = body.some((child) => child.name === 'w:titlePg' && isOn(child.raw.replace(/^<w:titlePg/, '')));
    const kinds: HeaderKind[] = ['default', ...(titlePage ? ['first' as const] : []), ...(evenAndOdd ? ['even' as const] : [])];
    const added: string[] = [];
    for (const kind of kinds) {
      let id = own.get(kind) ?? inherited.get(kind);
      if (!id) {
        id = newId;
        needsNewHeader = true;
      }
      if (!own.has(kind)) added.push(`<w:headerReference w:type="${kind}" r:id="${id}"${rNamespace}/>`);
      inherited.set(kind, id);
      referenced.add(id);
    }
    for (const [kind, id] of own) {
      referenced.add(id);
      inherited.set(kind, id);
    }
    page ??= pageArea(body, partName);
    // Header references come first in a w:sectPr (schema order).
    out.push(token.kind === 'empty' ? `${token.raw.replace(/\s*\/>$/, '>')}${added.join('')}</w:sectPr>` : token.raw + added.join(''));
    for (const child of tokens.slice(index + 1, end + 1)) out.push(child.raw);
    index = end;
  }
  return { xml: out.join(''), referenced, needsNewHeader, page: page ?? { width: 12240 - 2880, height: 15840 - 2880 } };
}

/** The index of the w:sectPr closing the one opened at `start` (past a tracked change's own). */
function sectionEnd(tokens: readonly Token[], start: number): number {
  let depth = 0;
  for (let index = start; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.name !== 'w:sectPr' || token.kind === 'empty') continue;
    depth += token.kind === 'open' ? 1 : -1;
    if (depth === 0) return index;
  }
  throw notDocx('a w:sectPr without its end');
}

/** The area inside the margins of a section, in twips. */
function pageArea(body: readonly Token[], partName: string): PageArea {
  const size = body.find((token) => token.name === 'w:pgSz');
  const margins = body.find((token) => token.name === 'w:pgMar');
  const twips = (token: Token | undefined, name: string, fallback: number) => {
    const value = Number(token ? attribute(token.raw, name, partName) : undefined);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  const width = twips(size, 'w:w', 12240) - twips(margins, 'w:left', 1440) - twips(margins, 'w:right', 1440);
  const height = twips(size, 'w:h', 15840) - twips(margins, 'w:top', 1440) - twips(margins, 'w:bottom', 1440);
  return { width: Math.max(width, 1440), height: Math.max(height, 1440) };
}

/**
 * Word's text watermark: the text stretched to a box (WordArt "plain text", shape type 136), turned
 * 315 degrees, centred on the margins, behind the text (negative z-index), silver at half opacity.
 * The box is as long as fits on the diagonal of the smaller side, as high as the text's width asks.
 */
function watermarkRun(text: string, page: PageArea, index: number): string {
  const side = Math.min(page.width, page.height) / 20; // points
  const aspect = Math.max(4, 0.5 * [...text].length); // a character about half as wide as high
  const width = (side * Math.SQRT2) / (1 + 1 / aspect);
  const height = width / aspect;
  const style = [
    'position:absolute', 'margin-left:0', 'margin-top:0', `width:${width.toFixed(2)}pt`, `height:${height.toFixed(2)}pt`, 'rotation:315',
    'z-index:-251654144', 'mso-position-horizontal:center', 'mso-position-horizontal-relative:margin',
    'mso-position-vertical:center', 'mso-position-vertical-relative:margin',
  ].join(';');
  return (
    '<w:r><w:rPr><w:noProof/></w:rPr><w:pict>' +
    '<v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" path="m@7,l@8,m@5,21600l@6,21600e">' +
    '<v:formulas><v:f eqn="sum #0 0 10800"/><v:f eqn="prod #0 2 1"/><v:f eqn="sum 21600 0 @1"/><v:f eqn="sum 0 0 @2"/><v:f eqn="sum 21600 0 @3"/><v:f eqn="if @0 @3 0"/><v:f eqn="if @0 21600 @1"/><v:f eqn="if @0 0 @2"/><v:f eqn="if @0 @4 21600"/><v:f eqn="mid @5 @6"/><v:f eqn="mid @8 @5"/><v:f eqn="mid @7 @8"/><v:f eqn="mid @6 @7"/><v:f eqn="sum @6 0 @5"/></v:formulas>' +
    '<v:path textpathok="t" o:connecttype="custom" o:connectlocs="@9,0;@10,10800;@11,21600;@12,10800" o:connectangles="270,180,90,0"/>' +
    '<v:textpath on="t" fitshape="t"/><v:handles><v:h position="#0,bottomRight" xrange="6629,14971"/></v:handles><o:lock v:ext="edit" text="t" shapetype="t"/></v:shapetype>' +
    `<v:shape id="PowerPlusWaterMarkObject${index}" o:spid="_x0000_s${2048 + index}" type="#_x0000_t136" style="${style}" o:allowincell="f" fillcolor="silver" stroked="f">` +
    `<v:fill opacity=".5"/><v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="${escapeAttribute(text)}"/>` +
    '<w10:wrap anchorx="margin" anchory="margin"/></v:shape></w:pict></w:r>'
  );
}

/** A paragraph of its own holding the shape, one point high so it does not move the header's text. */
function watermarkParagraph(run: string): string {
  return `<w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="20" w:lineRule="exact"/></w:pPr>${run}</w:p>`;
}

function watermarkHeader(run: string): string {
  const namespaces = Object.entries(SHAPE_NAMESPACES).map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr xmlns:w="${W_NAMESPACE}"${namespaces}>${watermarkParagraph(run)}</w:hdr>`;
}

/**
 * An existing header with the watermark's paragraph first (before any {{#if}} section, so no
 * condition removes it), the shape's namespaces declared on its root.
 */
function withShape(xml: string, partName: string, run: string): string {
  const root = /<w:hdr\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/.exec(xml);
  if (!root) throw notDocx(`${partName}: no w:hdr element`);
  const missing = Object.entries(SHAPE_NAMESPACES).filter(([prefix]) => !new RegExp(`\\sxmlns:${prefix}\\s*=`).test(root[1]!));
  const opening = `<w:hdr${root[1]}${missing.map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`).join('')}>`;
  const rest = root[2] ? '</w:hdr>' : '';
  return xml.slice(0, root.index) + opening + watermarkParagraph(run) + rest + xml.slice(root.index + root[0].length);
}
