// The installable app's service worker (served at /sw.js by forties.web.install): it keeps
// the page's own scripts, styles and icons on the device, never a game's state. A browser
// without service workers, or a page not in a secure context, simply goes without.
export function registerWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* without */ });
}
