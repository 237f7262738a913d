/**
 * Which supplied image a cell names (PDF and Word templates alike): the exact name, else ignoring
 * case and surrounding spaces, else without its .png/.jpg/.jpeg extension.
 */
function normalise(name: string): string {
  return name.trim().toLowerCase();
}

function withoutExtension(name: string): string {
  return normalise(name).replace(/\.(png|jpe?g)$/, '');
}

/** A lookup from a cell's text to the supplied image's name, or undefined. */
export function imageNameResolver(supplied: ReadonlyMap<string, unknown>): (cell: string) => string | undefined {
  const byKey = new Map<string, string>();
  for (const name of supplied.keys()) {
    byKey.set(normalise(name), name);
    if (!byKey.has(withoutExtension(name))) byKey.set(withoutExtension(name), name);
  }
  return (cell) => (supplied.has(cell) ? cell : byKey.get(normalise(cell)) ?? byKey.get(withoutExtension(cell)));
}
