/**
 * Fonts in the editor: the three standard fonts plus the user's uploaded .ttf/.otf fonts, which are
 * fetched once and registered with the browser (FontFace) so boxes show the real typeface. Names that
 * are neither (a deleted font) fall back to Helvetica, as the engine does (docs/editor.md#fonts).
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { FALLBACK_FONT, FONT_FILE_EXTENSIONS, STANDARD_FONTS, type Placeholder } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeQuery } from '../../api/routeQuery.ts';

const STANDARD_CSS: Record<string, string> = {
  Courier: '"Courier New", Courier, monospace',
  Helvetica: 'Helvetica, Arial, "Liberation Sans", sans-serif',
  'Times New Roman': '"Times New Roman", Times, "Liberation Serif", serif',
};

export const FONTS_QUERY_KEY = queryKeys.fonts;

export function useCustomFonts() {
  return useQuery({ ...routeQuery(FONTS_QUERY_KEY, 'listFonts'), staleTime: 60_000 });
}

/** Every family a placeholder can use, standard ones first. */
export function fontChoices(custom: readonly string[]): string[] {
  return [...STANDARD_FONTS, ...custom.filter((name) => !(STANDARD_FONTS as readonly string[]).includes(name))];
}

const faceName = (name: string): string => `sheaf-custom-${name}`;

/** CSS font-family for a placeholder's font; unknown names draw as Helvetica. */
export function fontCss(family: string, custom: readonly string[], loaded: ReadonlySet<string>): string {
  if (STANDARD_CSS[family]) return STANDARD_CSS[family];
  if (custom.includes(family) && loaded.has(family)) return `"${faceName(family)}", ${STANDARD_CSS[FALLBACK_FONT]}`;
  return STANDARD_CSS[FALLBACK_FONT];
}

export function fontCssStyle(fontStyle: Placeholder['fontStyle']): { fontWeight: number; fontStyle: 'normal' | 'italic' } {
  return { fontWeight: fontStyle === 'bold' || fontStyle === 'boldItalic' ? 700 : 400, fontStyle: fontStyle === 'italic' || fontStyle === 'boldItalic' ? 'italic' : 'normal' };
}

export function isFontFile(file: File): boolean {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (FONT_FILE_EXTENSIONS as readonly string[]).includes(extension);
}

const registered = new Map<string, Promise<void>>();

function registerFont(name: string): Promise<void> {
  let loading = registered.get(name);
  if (!loading) {
    loading = (async () => {
      const blob = await api.blob('fontFile', { params: { name } });
      const face = new FontFace(faceName(name), await blob.arrayBuffer());
      await face.load();
      document.fonts.add(face);
    })();
    // A failed font is retried next time and drawn as Helvetica meanwhile.
    loading.catch(() => registered.delete(name));
    registered.set(name, loading);
  }
  return loading;
}

/** Loads the custom fonts that `used` names; answers the set of those ready to draw. */
export function useLoadedFonts(custom: readonly string[], used: readonly string[]): ReadonlySet<string> {
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(new Set());
  const wanted = used.filter((name, index) => custom.includes(name) && used.indexOf(name) === index).sort().join('\n');
  useEffect(() => {
    let active = true;
    for (const name of wanted ? wanted.split('\n') : []) {
      registerFont(name).then(
        () => active && setLoaded((previous) => (previous.has(name) ? previous : new Set([...previous, name]))),
        () => undefined,
      );
    }
    return () => {
      active = false;
    };
  }, [wanted]);
  return loaded;
}
