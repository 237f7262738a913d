/**
 * Reloads open tabs when a new build is deployed: every 5 minutes and whenever the window gets focus,
 * dist/build.json is fetched past every cache and its buildId compared with the running one.
 */
const INTERVAL_MS = 5 * 60 * 1000;

export async function fetchBuildId(): Promise<string | null> {
  try {
    const response = await fetch(`/build.json?t=${Date.now()}`, { cache: 'no-store' });
    if (!response.ok) return null;
    const info = (await response.json()) as { buildId?: unknown };
    return typeof info.buildId === 'string' ? info.buildId : null;
  } catch {
    return null; // offline or not deployed with a build.json: try again later
  }
}

export function startVersionCheck(runningBuildId: string, reload: () => void = () => window.location.reload()): () => void {
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    const latest = await fetchBuildId();
    checking = false;
    if (latest && latest !== runningBuildId) reload();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') void check();
  };
  const timer = window.setInterval(() => void check(), INTERVAL_MS);
  window.addEventListener('focus', check);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.clearInterval(timer);
    window.removeEventListener('focus', check);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
