/** Node-only adapters of the engine (file system access for bundled assets). */
export { loadBundledFallbackFonts } from './fonts.ts';
