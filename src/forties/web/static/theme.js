// The pages' colours, chosen on the device and kept in its localStorage: today's green
// felt, a light one, or the device's own choice (prefers-color-scheme), followed as it
// changes. The choice is an attribute of the page's root (data-theme); the colours it
// shows, light or dark, another (data-colours), which style.css reads.
import { t } from './i18n.js';

export const THEMES = ['dark', 'light', 'system'];
const KEY = 'forties.theme';
const LIGHT = window.matchMedia ? window.matchMedia('(prefers-color-scheme: light)') : null;

export function savedTheme() {
  try {
    const v = localStorage.getItem(KEY);
    return THEMES.includes(v) ? v : 'dark';
  } catch (e) {
    return 'dark';
  }
}

export function applyTheme(theme = savedTheme()) {
  const root = document.documentElement;
  root.dataset.theme = theme;
  const light = theme === 'light' || (theme === 'system' && LIGHT !== null && LIGHT.matches);
  root.dataset.colours = light ? 'light' : 'dark';
}

/** Fill `select` with the choices in the page's words, and keep what is chosen. */
export function themePicker(select) {
  const keep = savedTheme();
  select.replaceChildren(...THEMES.map((v) => {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = t(`theme.${v}`);
    return o;
  }));
  select.value = keep;
  if (!select.dataset.bound) {
    select.dataset.bound = '1';
    select.addEventListener('change', () => {
      try { localStorage.setItem(KEY, select.value); } catch (e) { /* this page only */ }
      applyTheme(select.value);
    });
  }
}

if (LIGHT !== null && LIGHT.addEventListener) LIGHT.addEventListener('change', () => applyTheme());
applyTheme();
