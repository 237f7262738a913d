/**
 * Stripe's request encoding, read back: form fields (or a query string) in bracket notation, as the
 * client writes them (line_items[0][price]=price_x&metadata[uid]=u1&expand[0]=items), into nested
 * objects and arrays. Values stay strings, as Stripe receives them ("true", "1").
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** `a[b][0][c]` → ['a', 'b', '0', 'c']. */
function keyPath(key: string): string[] {
  const first = key.indexOf('[');
  if (first < 0) return [key];
  const path = [key.slice(0, first)];
  for (const match of key.slice(first).matchAll(/\[([^\]]*)\]/g)) path.push(match[1]!);
  return path;
}

const isIndex = (segment: string) => /^\d+$/.test(segment) || segment === '';

export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = keyPath(key);
    let node: FormObject | FormValue[] = root;
    path.forEach((segment, index) => {
      const last = index === path.length - 1;
      const container = node as Record<string, FormValue>;
      // `a[]=x` appends.
      const slot = segment === '' && Array.isArray(node) ? String(node.length) : segment;
      if (last) {
        container[slot] = value;
        return;
      }
      if (container[slot] === undefined || typeof container[slot] === 'string') container[slot] = isIndex(path[index + 1]!) ? [] : {};
      node = container[slot] as FormObject | FormValue[];
    });
  }
  return root;
}

/** The string at `value`, or undefined. */
export const str = (value: FormValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
export const obj = (value: FormValue | undefined): FormObject => (value && typeof value === 'object' && !Array.isArray(value) ? value : {});
/** An array, whether the client sent it as [0]... (an array) or as an object keyed by index. */
export const list = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : []);
export const bool = (value: FormValue | undefined): boolean | undefined => (value === 'true' ? true : value === 'false' ? false : undefined);
/** metadata[...]: every value a string; an empty value deletes the key (Stripe's rule). */
export function metadataOf(value: FormValue | undefined, base: Record<string, string> = {}): Record<string, string> {
  const result = { ...base };
  for (const [key, entry] of Object.entries(obj(value))) {
    if (typeof entry !== 'string') continue;
    if (entry === '') delete result[key];
    else result[key] = entry;
  }
  return result;
}
