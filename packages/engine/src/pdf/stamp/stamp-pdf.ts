/**
 * The documents of a stamp batch (docs/word-templates.md#stamped-batches; docx/stamp-plan.ts makes the
 * DOCX): LibreOffice printed the batch's first document whole (the reference) and then, on pages of
 * their own, only the template's variable blocks for every document, each between two sentinel
 * paragraphs. Each document is the reference with every block's drawing changed to its own: what
 * it shares with the first document stays, its own items go on the reference's lines. Nothing is
 * guessed: the first document's blocks must match the reference's drawing exactly (the same items at
 * one offset) or the batch is not stamped at all, and a document whose block is taller or shorter
 * than the reference's (a value that wraps), or split over two pages, is left to the caller to print
 * the ordinary way.
 */
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFArray, type PDFStream } from 'pdf-lib';
import { concatBytes, ascii } from '../bytes.ts';
import { decodeBudget } from '../decode.ts';
import { loadBatchPdf } from '../batch-load.ts';
import { batchDocumentWriter } from '../batch-writer.ts';
import { decodeStrictly, flateStream } from '../compact/strict-decode.ts';
import { placedText, readPageContent, type ContentItem, type PageContent } from './content-items.ts';

/**
 * Where a variable block sits in the template: a body block is drawn once in the reference, a header
 * or footer block on every page.
 */
export type StampZone = 'body' | 'header' | 'footer';

export interface StampLayout {
  /** The blocks of each document, in the order the stamp batch prints them, and where in the template each is. */
  zones: readonly StampZone[];
}

export interface StampPdf {
  /** The PDF of document `index`, or undefined when it must be printed the ordinary way. */
  document(index: number): Uint8Array | undefined;
}

/**
 * How far two positions may differ and still be the same: LibreOffice writes some positions to 0.1 pt
 * (on the tall pages of blocks always), so one place printed on two pages can differ by that much.
 */
const EPSILON = 0.11;
/** How far around a block's outermost anchors the reference is searched for its drawing: as far as positions may differ (a shaded paragraph may start 1 pt below a table). */
const SLACK = EPSILON;

interface Band {
  page: number;
  top: number;
  bottom: number;
  items: ContentItem[];
}

/** One place a block is drawn in the reference: its page, its items there, and its offset from the first document's band. */
interface Placement {
  page: number;
  removed: Set<ContentItem>;
  /** Reference y of the band's top. */
  top: number;
  /**
   * The reference's items of the block, each with the first document's item it is (as printed on the
   * pages of blocks) and how far that one's first anchor lies below its band's top.
   */
  pairs: Array<{ drawn: ContentItem; printed: ContentItem; depth: number }>;
}

/** What one document changes of one placement: the reference items it keeps (the same in it) and its own items put in. */
interface Swap {
  placement: Placement;
  band: Band;
  kept: Set<ContentItem>;
  inserted: ContentItem[];
}

/**
 * How far two depths in their bands may differ and still be one line: each is two positions
 * LibreOffice may have rounded to 0.1 pt. Lines and borders lie points apart.
 */
const LINE_TOLERANCE = 0.25;

/** Opens a stamp batch of `count` documents; undefined when it cannot be stamped (then print the ordinary batch). */
export async function openStampPdf(pdf: Uint8Array, count: number, layout: StampLayout): Promise<StampPdf | undefined> {
  const blocks = layout.zones.length;
  if (count < 1 || blocks < 1) return undefined;
  const doc = await loadBatchPdf(pdf);
  const pages = doc.getPages();
  const budget = decodeBudget(pdf.length);
  const contents: PageContent[] = [];
  for (const page of pages) {
    const data = pageContentBytes(page.node, budget);
    if (!data) return undefined;
    const box = page.getMediaBox();
    contents.push(readPageContent(data, { width: box.x + box.width, height: box.y + box.height }));
  }
  const sentinels: Array<{ page: number; y: number }> = [];
  contents.forEach((content, page) => {
    for (const item of content.items) if (item.sentinel && item.anchors) sentinels.push({ page, y: item.anchors[1]! });
  });
  // Each document's blocks lie between blocks + 1 sentinels of their own.
  const perDocument = blocks + 1;
  if (sentinels.length !== count * perDocument) return undefined;
  const firstStampPage = sentinels[0]!.page;
  if (firstStampPage === 0) return undefined;
  const resources = (index: number) => pages[index]!.node.get(PDFName.of('Resources'));
  const shared = resources(0);
  if (!(shared instanceof PDFRef)) return undefined;
  for (let page = 0; page < pages.length; page++) {
    if (resources(page) !== shared) return undefined;
    if (page >= firstStampPage && pages[page]!.node.has(PDFName.of('Annots'))) return undefined;
    if (contents[page]!.loose) return undefined;
  }

  const bands = Array.from({ length: count * blocks }, (_, index): Band | undefined => {
    const at = Math.floor(index / blocks) * perDocument + (index % blocks);
    const before = sentinels[at]!;
    const after = sentinels[at + 1]!;
    if (before.page !== after.page || after.y >= before.y) return undefined;
    const items = contents[before.page]!.items.filter((item) => !item.sentinel && item.anchors && within(item.anchors, after.y, before.y));
    return { page: before.page, top: before.y, bottom: after.y, items };
  });
  // Every item of a page of blocks must belong to a band or lie outside them all (the page's header, say).
  for (let page = firstStampPage; page < pages.length; page++) {
    const pageBands = bands.filter((band): band is Band => band?.page === page);
    for (const item of contents[page]!.items) {
      if (item.sentinel || !item.anchors) {
        if (!item.sentinel) return undefined;
        continue;
      }
      const touching = pageBands.filter((band) => touches(item.anchors!, band.bottom, band.top));
      if (touching.length > 1 || (touching.length === 1 && !touching[0]!.items.includes(item))) return undefined;
    }
  }

  const placements = placeBlocks(contents.slice(0, firstStampPage), bands.slice(0, blocks), layout);
  if (!placements) return undefined;

  const writer = batchDocumentWriter(doc, pdf);
  const referencePages = pages.slice(0, firstStampPage).map((page) => page.ref);
  return {
    document(index) {
      if (index < 0 || index >= count) throw new RangeError(`no document ${index} in a batch of ${count}`);
      const swaps = new Map<number, Swap[]>();
      for (let block = 0; block < blocks; block++) {
        const own = bands[index * blocks + block];
        const first = bands[block]!;
        if (!own || Math.abs(own.top - own.bottom - (first.top - first.bottom)) > EPSILON) return undefined;
        for (const placement of placements[block]!) {
          const list = swaps.get(placement.page) ?? [];
          list.push(swapOf(placement, own));
          swaps.set(placement.page, list);
        }
      }
      return writer.write(referencePages.map((ref, page) => {
        const list = swaps.get(page);
        return list ? { ref, contents: swappedContent(doc, contents[page]!, list, contents) } : { ref };
      }));
    },
  };
}

/**
 * Where each block of the first document is drawn in the reference: each body block exactly once,
 * after the body block before it; each header and footer block exactly once on every page. A block
 * drawn like something else of the reference (the same text at two places) is not stamped: which
 * of the two is the field's could only be guessed.
 */
function placeBlocks(reference: readonly PageContent[], firstBands: readonly (Band | undefined)[], layout: StampLayout): Placement[][] | undefined {
  const claimed = new Set<ContentItem>();
  const placements: Placement[][] = [];
  let after = { page: -1, y: Infinity };
  for (const [block, zone] of layout.zones.entries()) {
    const band = firstBands[block];
    if (!band || band.items.length === 0) return undefined;
    const found: Placement[] = [];
    for (let page = 0; page < reference.length; page++) {
      const matches = matchesOnPage(reference[page]!, page, band, claimed);
      if (!matches) return undefined;
      if (zone !== 'body' && matches.length !== 1) return undefined;
      found.push(...matches);
    }
    if (zone === 'body') {
      const only = found[0];
      if (found.length !== 1 || !only) return undefined;
      const ys = [...only.removed].flatMap(ysOf);
      if (only.page < after.page || (only.page === after.page && !ys.every((y) => y < after.y - EPSILON))) return undefined;
      after = { page: only.page, y: Math.min(...ys) };
    }
    for (const placement of found) for (const item of placement.removed) claimed.add(item);
    placements.push(found);
  }
  return placements;
}

/**
 * Every place on `page` where the band's items are drawn, all of them and nothing else, at one
 * vertical offset; undefined when the page has drawing this cannot place.
 */
function matchesOnPage(content: PageContent, page: number, band: Band, claimed: ReadonlySet<ContentItem>): Placement[] | undefined {
  if (content.items.some((item) => !item.anchors)) return undefined;
  const first = band.items[0]!;
  const wanted = band.items.map((item) => item.signature).sort();
  // The block's own extent, not the sentinels': in the reference the next paragraph or a table's border may come closer.
  const ys = band.items.flatMap(ysOf);
  const low = Math.min(...ys) - SLACK;
  const high = Math.max(...ys) + SLACK;
  const found: Placement[] = [];
  for (const candidate of content.items) {
    if (claimed.has(candidate) || candidate.signature !== first.signature) continue;
    const dx = candidate.anchors![0]! - first.anchors![0]!;
    const dy = candidate.anchors![1]! - first.anchors![1]!;
    if (Math.abs(dx) > EPSILON) continue;
    const top = high + dy;
    const bottom = low + dy;
    const inside = content.items.filter((item) => within(item.anchors!, bottom, top));
    if (inside.length !== band.items.length || inside.some((item) => claimed.has(item))) continue;
    const signatures = inside.map((item) => item.signature).sort();
    if (signatures.some((signature, index) => signature !== wanted[index])) continue;
    // Something static reaching into the block's extent (a shaded paragraph right below a table, a
    // page border) stays where it is: everything a row changes lies wholly inside, and was matched.
    const pairs = pairItems(inside, band.items, dy);
    if (!pairs) continue;
    // LibreOffice may paint one thing twice (a table's shading): another candidate of the same place is the same match.
    if (found.some((placement) => Math.abs(placement.top - (band.top + dy)) <= EPSILON)) continue;
    found.push({ page, removed: new Set(inside), top: band.top + dy, pairs: pairs.map(([drawn, printed]) => ({ drawn, printed, depth: band.top - printed.anchors![1]! })) });
  }
  return found;
}

/**
 * `drawn` (reference items) paired with the `band` items they are, moved by `dy` (same signature,
 * anchors within EPSILON); undefined when they are not the same items.
 */
function pairItems(drawn: readonly ContentItem[], band: readonly ContentItem[], dy: number): Array<[ContentItem, ContentItem]> | undefined {
  const order = (a: ContentItem, b: ContentItem) => (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : b.anchors![1]! - a.anchors![1]! || a.anchors![0]! - b.anchors![0]!);
  const a = [...drawn].sort(order);
  const b = [...band].sort(order);
  const same = a.every((item, index) => {
    const other = b[index]!;
    if (item.signature !== other.signature || item.anchors!.length !== other.anchors!.length) return false;
    return item.anchors!.every((value, at) => Math.abs(value - other.anchors![at]! - (at % 2 === 1 ? dy : 0)) <= EPSILON);
  });
  return same ? a.map((item, index) => [item, b[index]!]) : undefined;
}

const ysOf = (item: ContentItem) => item.anchors!.filter((_, index) => index % 2 === 1);

const within = (anchors: readonly number[], bottom: number, top: number) => {
  for (let index = 1; index < anchors.length; index += 2) if (anchors[index]! <= bottom || anchors[index]! >= top) return false;
  return true;
};

const touches = (anchors: readonly number[], bottom: number, top: number) => {
  for (let index = 1; index < anchors.length; index += 2) if (anchors[index]! > bottom && anchors[index]! < top) return true;
  return false;
};

/**
 * What document `band` changes of `placement`: an item of its block drawn as the first document's
 * (a label, a table's borders: the same item at the same depth) keeps the reference's own drawing;
 * the others (its values) are put in.
 */
function swapOf(placement: Placement, band: Band): Swap {
  const kept = new Set<ContentItem>();
  const inserted: ContentItem[] = [];
  const used = new Set<number>();
  for (const item of band.items) {
    const depth = band.top - item.anchors![1]!;
    const match = placement.pairs.findIndex((pair, at) => !used.has(at) && pair.printed.signature === item.signature && Math.abs(pair.depth - depth) <= LINE_TOLERANCE && sameShape(pair.printed.anchors!, item.anchors!));
    if (match < 0) inserted.push(item);
    else {
      used.add(match);
      kept.add(placement.pairs[match]!.drawn);
    }
  }
  return { placement, band, kept, inserted };
}

/** Whether two anchor lists are one shape: each point at the same place from the first, within EPSILON. */
function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 2; index < a.length; index++) if (Math.abs(a[index]! - a[index % 2]! - (b[index]! - b[index % 2]!)) > EPSILON) return false;
  return Math.abs(a[0]! - b[0]!) <= EPSILON;
}

/**
 * The reference page's content with each placement's items that the document changes replaced by
 * its own: each put on the reference's y of its line (the first document's item at the same depth
 * in its band), or with the band when no line matches (then within 0.1 pt of where LibreOffice
 * would print it). Positions on the pages of blocks are rounded (to 0.1 pt); the reference's are kept.
 */
function swappedContent(doc: PDFDocument, page: PageContent, swaps: readonly Swap[], contents: readonly PageContent[]): PDFStream {
  // A document's items go where the first item it replaces was painted (after its block's shading, say),
  // or after the block's last item when it replaces none.
  const insertAt = new Map<Swap, ContentItem>();
  for (const swap of swaps) {
    const replaced = page.items.filter((item) => swap.placement.removed.has(item));
    insertAt.set(swap, replaced.find((item) => !swap.kept.has(item)) ?? replaced.at(-1)!);
  }
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const item of page.items) {
    const swap = swaps.find((entry) => entry.placement.removed.has(item));
    if (!swap) continue;
    const here = insertAt.get(swap) === item;
    if (swap.kept.has(item)) {
      if (!here) continue;
      parts.push(page.data.subarray(at, item.end), ...insertion(swap, contents));
      at = item.end;
      continue;
    }
    parts.push(page.data.subarray(at, item.start));
    if (here) parts.push(...insertion(swap, contents));
    at = item.end;
  }
  parts.push(page.data.subarray(at));
  return flateStream(doc.context, concatBytes(parts));
}

/**
 * A document's own items of a block, each on the reference's y of its line (the first document's
 * item at the same depth in its band), or with the band when no line matches (then within 0.1 pt of
 * where LibreOffice would print it): positions on the pages of blocks are rounded to 0.1 pt, the
 * reference's are kept.
 */
function insertion(swap: Swap, contents: readonly PageContent[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  const source = contents[swap.band.page]!.data;
  const bandDy = swap.placement.top - swap.band.top;
  for (const moved of swap.inserted) {
    const y = moved.anchors![1]!;
    const depth = swap.band.top - y;
    let best: Swap['placement']['pairs'][number] | undefined;
    for (const pair of swap.placement.pairs) if (Math.abs(pair.depth - depth) <= LINE_TOLERANCE && (!best || Math.abs(pair.depth - depth) < Math.abs(best.depth - depth))) best = pair;
    const bytes = source.subarray(moved.start, moved.end);
    // Each item with the state it had where it was printed (a colour set before it, say), kept to itself.
    const target = best?.drawn.anchors![1];
    const text = target !== undefined ? placedText(bytes, (from) => target + (from - y)) : undefined;
    if (text) parts.push(ascii(`\nq\n${moved.state}\n`), text, ascii('Q\n'));
    else parts.push(ascii(`\nq 1 0 0 1 0 ${(best ? best.drawn.anchors![1]! - y : bandDy).toFixed(4)} cm\n${moved.state}\n`), bytes, ascii('\nQ\n'));
  }
  return parts;
}

const NEWLINE = ascii('\n');

/** A page's content streams decoded and joined, or undefined when one cannot be read. */
function pageContentBytes(page: PDFDict, budget: ReturnType<typeof decodeBudget>): Uint8Array | undefined {
  const value = page.lookup(PDFName.of('Contents'));
  const streams = value instanceof PDFArray ? Array.from({ length: value.size() }, (_, index) => value.lookup(index)) : [value];
  const parts: Uint8Array[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) return undefined;
    try {
      parts.push(decodeStrictly(stream, budget), NEWLINE);
    } catch {
      return undefined;
    }
  }
  return concatBytes(parts);
}
