/**
 * Where keyboard focus goes when the focused placeholder disappears (Delete, the panel's delete
 * button): the pages' scroll region, so focus stays in the editor and the next shortcut, Tab or
 * arrow key acts there instead of starting over at the top of the page.
 */
export const PAGES_VIEW_ID = 'editor-pages';

export function focusPagesView(): void {
  document.getElementById(PAGES_VIEW_ID)?.focus({ preventScroll: true });
}
