// Small helpers shared by the pages: JSON requests with one-line errors, saved seats.
import { t, has } from './i18n.js';

/** POST or GET JSON; resolves to the body, or throws an Error whose message is the
 *  server's one line (or a plain one when the network is down). */
export async function api(path, body) {
  let r;
  try {
    r = await fetch(path, body === undefined ? {} : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error(t('error.network'));
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.error) || t('error.server', { status: r.status }));
    err.status = r.status;
    err.code = data && typeof data.code === 'string' ? data.code : null;
    throw err;
  }
  return data;
}

// The refusals the pages say in the reader's language (by the server's code); any other
// is the server's own line (the engine's words about rules, a request the page never makes).
const CODES = ['taken', 'invite', 'started', 'table', 'token', 'rate', 'busy', 'restarting',
  'rated_guests', 'rated_house_rules'];

/** What to show for an error thrown by api(). */
export function errorText(e) {
  return e && CODES.includes(e.code) ? t(`error.code.${e.code}`) : String((e && e.message) || e);
}

/** A house rule's value in words (the option lists' own words where the catalog has them). */
export function valueText(v) {
  if (v === null) return t('value.null');
  if (typeof v === 'boolean') return t(v ? 'value.true' : 'value.false');
  const id = `value.${v}`;
  return has(id) ? t(id) : String(v);
}

export function saveSeat(tableId, token) {
  localStorage.setItem(`forties.seat.${tableId}`, token);
}

export function savedSeat(tableId) {
  return localStorage.getItem(`forties.seat.${tableId}`);
}

export function saveInvites(tableId, invites) {
  localStorage.setItem(`forties.invites.${tableId}`, JSON.stringify(invites));
}

export function savedInvites(tableId) {
  try { return JSON.parse(localStorage.getItem(`forties.invites.${tableId}`) || 'null'); } catch (e) {
    return null;
  }
}

export function savedName() {
  return localStorage.getItem('forties.name') || '';
}

export function saveName(name) {
  if (name) localStorage.setItem('forties.name', name);
}

/** A table page's address (`/t/ID#token=...`) as a full link, for sharing. */
export function absolute(url) {
  return new URL(url, location.href).href;
}

/** An element with text (never HTML) and attributes. */
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** Copy text to the clipboard; falls back to selecting the field. */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    if (field) { field.focus(); field.select(); }
    try { return document.execCommand('copy'); } catch (e2) { return false; }
  }
}

export const LEVELS = ['random', 'basic', 'expert'];

/** The level in the name the server gives a computer player nobody named, "Computer
 *  (basic)" (forties.table.computer_name); null for any other name (a person's, or a
 *  computer player's own, as a hall registers it). The one place the pages read it. */
export function computerLevel(name) {
  const m = typeof name === 'string' ? /^Computer \((\w+)\)$/.exec(name) : null;
  return m ? m[1] : null;
}

/** A computer player of `level` in the page's words: "Ordinateur (Joueur de club)". */
export function computerWords(level) {
  return t('replay.computer', { level: t(`level.${level}`, null, level) });
}
