// The app's service worker: the page's own files (scripts, styles, icons) kept on the
// device, for when the network fails; never a game's state,
// never /api, the websockets or a table's page, which always go to the server.
// The server writes VERSION (a digest of these files) and FILES when it serves this
// script (forties.web.install): files changed make a new worker, whose cache replaces
// the old one when it starts.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const PREFIX = 'forties-static-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (ev) => {
  ev.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE)
      .map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  // only this site's static files, and from the network first: a page (never kept) and
  // its scripts always come from one version; the kept copy answers when the network
  // does not (offline, the server restarting). All else goes by as usual.
  if (req.method !== 'GET' || url.origin !== self.location.origin
      || !FILES.includes(url.pathname)) return;
  ev.respondWith(fetch(req).catch(() => caches.open(CACHE)
    .then((cache) => cache.match(url.pathname))
    .then((hit) => hit || Response.error())));
});
