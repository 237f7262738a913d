/**
 * One per merge. Pass 1 `collect`s every row's values so fonts are subset once over all of them;
 * `freeze` builds the subset programs; `embed` writes the font dictionaries once; then per row
 * `layout` + `draw` only read tables built earlier.
 */
import type { PDFContext, PDFRef } from 'pdf-lib';
import { FontCatalog, type CatalogOptions } from './faces/catalog.ts';
import { mapSimple } from './simple-text.ts';
import { buildParagraphs, uncoveredCharacters } from './complex/pieces.ts';
import { layoutText, type UseFont } from './layout.ts';
import { drawLayout } from './draw.ts';
import { embedStandardFont, embedSubsetFont } from './pdf/embed-font.ts';
import type { PdfFont } from './faces/face.ts';
import type { Box, TextLayout, TextStyle } from './types.ts';

export interface FontRegistryOptions extends CatalogOptions {
  /** Prefix of the font resource names (default "SF": SF1, SF2, ...), to stay clear of a template's own. */
  resourcePrefix?: string;
}

export class FontRegistry {
  private readonly catalog: FontCatalog;
  private readonly prefix: string;
  private readonly used: PdfFont[] = [];
  private refs: Map<string, PDFRef> | null = null;
  private readonly use: UseFont = (font) => {
    if (font.resourceName !== '') return;
    if (this.refs) {
      throw new Error(`FontRegistry: text needing ${font.kind === 'standard' ? font.baseFont : font.name} was not collected before embed()`);
    }
    this.used.push(font);
    font.resourceName = `${this.prefix}${this.used.length}`;
  };

  constructor(options: FontRegistryOptions) {
    this.catalog = new FontCatalog(options);
    this.prefix = options.resourcePrefix ?? 'SF';
  }

  /** Pass 1: note the fonts and glyphs a value needs (call for every row's value). */
  collect(text: string, style: TextStyle): void {
    if (text === '') return;
    const faces = this.catalog.faceSet(style.fontFamily, style.fontStyle);
    if (mapSimple(text, faces.primary.font)) {
      this.use(faces.primary.font);
      return;
    }
    for (const paragraph of buildParagraphs(text, faces)) for (const piece of paragraph) this.use(piece.face.font);
  }

  /** Ends pass 1: encodes the subset font programs (once per merge). */
  freeze(): void {
    for (const font of this.used) if (font.kind === 'embedded') font.subsetProgram();
  }

  /** Lines, runs and positions of a value in a box (per row). */
  layout(text: string, style: TextStyle, box: Box): TextLayout {
    return layoutText(text, style, box, this.catalog.faceSet(style.fontFamily, style.fontStyle), this.use);
  }

  /**
   * The characters of `text` neither the style's font nor the fallback can print (they would show as
   * .notdef boxes), each once, in order: the data check's rule (docs/data-check.md#layout).
   */
  missingCharacters(text: string, style: Pick<TextStyle, 'fontFamily' | 'fontStyle'>): string[] {
    if (text === '') return [];
    const faces = this.catalog.faceSet(style.fontFamily, style.fontStyle);
    if (mapSimple(text, faces.primary.font)) return [];
    return uncoveredCharacters(text, faces);
  }

  /** Content-stream operators of a layout, '' when it shows nothing. Fonts by resourceNames(). */
  draw(layout: TextLayout): string {
    return drawLayout(layout);
  }

  /** Adds the font dictionaries to the output once: resource name -> font dictionary ref. */
  embed(context: PDFContext): Map<string, PDFRef> {
    if (this.refs) return this.refs;
    const refs = new Map<string, PDFRef>();
    for (const font of this.used) {
      refs.set(font.resourceName, font.kind === 'standard' ? embedStandardFont(context, font) : embedSubsetFont(context, font));
      if (font.kind === 'embedded') font.seal();
    }
    this.refs = refs;
    return refs;
  }

  /** Resource names of the fonts used so far, in order of first use. */
  resourceNames(): string[] {
    return this.used.map((font) => font.resourceName);
  }
}
