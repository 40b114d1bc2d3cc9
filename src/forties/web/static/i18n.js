// Messages from the server's catalogs (GET /i18n/LANG.json); the page's language and direction.
let messages = {};
let lang = 'en';
const KEY = 'forties.lang';

/** The text of message `id` with {name} fields filled in; `fallback` (or the id) if missing. */
export function t(id, params, fallback) {
  let text = Object.prototype.hasOwnProperty.call(messages, id) ? messages[id]
    : (fallback !== undefined ? fallback : id);
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  }
  return text;
}

/** The form a count takes in language `code`: 'one' where the noun after it is singular
 *  (English: 1 point; French: 0 point, 1 point, 1,5 pli; Arabic: 1), else 'other'. */
export function pluralForm(code, count) {
  const n = Math.abs(Number(count));
  if (Number.isNaN(n)) return 'other';
  if (code === 'fr') return n < 2 ? 'one' : 'other';
  return n === 1 ? 'one' : 'other';
}

/** t() for a sentence with a count in it: message `id.one` where the page's language says
 *  `count` with the singular ("0 point" in French, "1 point"), else `id` (the general form). */
export function tn(id, count, params, fallback) {
  const one = `${id}.one`;
  return t(pluralForm(lang, count) === 'one' && has(one) ? one : id, params, fallback);
}

/** Whether the catalog has `id` (for texts the server also sends in English). */
export function has(id) {
  return Object.prototype.hasOwnProperty.call(messages, id);
}

export function language() {
  return lang;
}

/** The language to use: ?lang= in the address, the one chosen before, or the browser's.
 *  A language asked for in the address is kept as the picker keeps its choice, so the
 *  pages that follow (the new table, the new pad, the replay) stay in it. */
export function preferredLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked) {
    if (['en', 'fr', 'ar'].includes(asked)) {
      try { localStorage.setItem(KEY, asked); } catch (e) { /* kept for this page only */ }
    }
    return asked;
  }
  const saved = localStorage.getItem(KEY);
  if (saved) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return ['en', 'fr', 'ar'].includes(nav) ? nav : 'en';
}

export async function loadLanguage(code) {
  let data;
  try {
    const r = await fetch(`/i18n/${encodeURIComponent(code)}.json`);
    if (!r.ok) throw new Error(String(r.status));
    data = await r.json();
  } catch (e) {
    if (code !== 'en') return loadLanguage('en');
    data = { dir: 'ltr', messages: {} };
  }
  messages = data.messages || {};
  lang = code;
  document.documentElement.lang = code;
  document.documentElement.dir = data.dir === 'rtl' ? 'rtl' : 'ltr';
  applyTranslations(document);
  return data;
}

/** Fill every element marked data-i18n (text), data-i18n-label (aria-label),
 *  data-i18n-placeholder and data-i18n-title. */
export function applyTranslations(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-label]')) {
    node.setAttribute('aria-label', t(node.dataset.i18nLabel));
  }
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) {
    node.setAttribute('placeholder', t(node.dataset.i18nPlaceholder));
  }
  for (const node of root.querySelectorAll('[data-i18n-title]')) {
    node.setAttribute('title', t(node.dataset.i18nTitle));
  }
  const title = document.querySelector('title[data-i18n]');
  if (title) document.title = title.textContent;
}

/** Fill a <select> with the server's languages; changing it reloads the texts. */
export async function languagePicker(select, onChange) {
  let langs = [{ code: 'en', name: 'English' }, { code: 'fr', name: 'Français' },
    { code: 'ar', name: 'العربية' }];
  try {
    const r = await fetch('/api/languages');
    if (r.ok) langs = await r.json();
  } catch (e) { /* keep the three built in */ }
  select.replaceChildren();
  for (const l of langs) {
    const o = document.createElement('option');
    o.value = l.code;
    o.textContent = l.name;
    o.lang = l.code;
    select.appendChild(o);
  }
  select.value = lang;
  select.addEventListener('change', async () => {
    localStorage.setItem(KEY, select.value);
    await loadLanguage(select.value);
    if (onChange) onChange();
  });
}
