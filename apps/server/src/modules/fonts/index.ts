/** The fonts module's public surface: an account's custom fonts (the editor draws with them, merges embed them). */
export { listFonts, uploadFont, deleteFont, fontFile } from './service.ts';
export { loadUserFonts } from './load.ts';
export { connectFonts } from './subscriptions.ts';
export { registerFontRoutes } from './routes.ts';
