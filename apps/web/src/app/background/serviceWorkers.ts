/**
 * Sheaf has no service worker. An old one (from an earlier deployment on this origin) would serve
 * stale files, so on load every registration and cache is removed, and if one was controlling this
 * page it is reloaded once to come up fresh (docs/web-app.md#background-behaviours).
 */
const RELOADED_KEY = 'sheaf.swReloaded';

/** Resolves true when the page is about to reload (the app should not start). */
export async function removeServiceWorkers(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  const wasControlled = Boolean(navigator.serviceWorker.controller);
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((registration) => registration.unregister()));
    if (typeof caches !== 'undefined') {
      const names = await caches.keys();
      await Promise.all(names.map((name) => caches.delete(name)));
    }
  } catch {
    return false;
  }
  if (!wasControlled || sessionStorage.getItem(RELOADED_KEY)) return false;
  sessionStorage.setItem(RELOADED_KEY, '1');
  window.location.reload();
  return true;
}
