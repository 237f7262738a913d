/**
 * Stack traces that name the .ts sources of the build, with a source map read only when a stack that
 * passes through its file is formatted. process.setSourceMapsEnabled(true) reads and indexes the map
 * of every module as it loads: at `sheaf serve`'s start that is every chunk of the build, a tenth of
 * its CPU time, and the maps stay in memory for good (bench/README.md "Cold start").
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Maps the frames of files under `buildDir` (a folder of .mjs files with linked .map files beside them). */
export function mapStackTracesLazily(buildDir) {
  const prefix = `${pathToFileURL(buildDir).href}/`;
  const maps = new Map(); // file URL -> SourceMap, or null when it has none
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        // no map (or an unreadable one): the frame stays as it is
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  const frame = (site) => {
    const text = String(site);
    const url = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (!url?.startsWith(prefix) || !line || !column) return text;
    const entry = mapOf(url)?.findEntry(line - 1, column - 1);
    if (!entry?.originalSource) return text;
    const source = fileURLToPath(new URL(entry.originalSource, url));
    return text.replace(`${url}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
  };
  // A stack trace must come out whatever happens: a frame that cannot be mapped stays as V8 wrote it.
  const safely = (map, site) => {
    try {
      return map(site);
    } catch {
      return String(site);
    }
  };
  Error.prepareStackTrace = (error, sites) => {
    let header;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = '<error>';
    }
    return [header, ...sites.map((site) => `    at ${safely(frame, site)}`)].join('\n');
  };
}
