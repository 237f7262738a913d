/** Hands bytes to the browser as a download with the given file name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; the URL may go after the current task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Follows a generated download link after checking it still answers (links are time-limited and
 * files can be deleted meanwhile): resolves false instead of leaving the browser on an error page.
 */
export async function followDownloadLink(href: string, fileName: string): Promise<boolean> {
  try {
    const response = await fetch(href, { method: 'HEAD', cache: 'no-store' });
    if (!response.ok) return false;
  } catch {
    return false;
  }
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  return true;
}
