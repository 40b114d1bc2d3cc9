// "My games": the signed-in account's finished games, newest first, a page at a time, with
// filters by game and partner (kept in the address, so that a page can be kept and shared
// with oneself), each game with its replay, its record and its hands in the replay.
import { t, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { h } from './util.js';
import { families, familyName, gameItem, refusalWords } from './history.js';
import './theme.js';

const $ = (id) => document.getElementById(id);
let answer = null;
let FAMILIES = [];

function asked() {
  const q = new URLSearchParams(location.search);
  return { family: q.get('family') || '', partner: q.get('partner') || '', before: q.get('before') || '' };
}

/** This page's address for a filter, and the page of games before a time (none: the newest). */
function address(family, partner, before) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of [['family', family], ['partner', partner], ['before', before ? String(before) : '']]) {
    if (v) q.set(k, v); else q.delete(k);
  }
  const s = q.toString();
  return `/me/games${s ? `?${s}` : ''}`;
}

function draw() {
  if (!answer) return;
  const a = answer;
  const family = $('family');
  family.replaceChildren(h('option', { value: '', text: t('history.all_games') }),
    ...FAMILIES.map((p) => h('option', { value: p, text: familyName(p), selected: p === a.family })));
  family.value = a.family || '';
  const partner = $('partner');
  partner.replaceChildren(h('option', { value: '', text: t('history.any_partner') }),
    ...a.partners.map((p) => h('option', { value: p.id, text: p.former ? t('history.former') : p.name })));
  partner.value = a.partner || '';
  $('games').replaceChildren(...a.games.map((g) => gameItem(g)));
  $('empty').hidden = a.games.length > 0;
  const newer = $('newer');
  newer.hidden = !a.before;
  newer.href = address(a.family, a.partner, null);
  const older = $('older');
  older.hidden = !a.more;
  older.href = address(a.family, a.partner, a.next);
  $('my-page').href = `/players/${encodeURIComponent(a.player.id)}`;
  $('my-page').hidden = false;
  $('filters').hidden = false;
  $('list-box').hidden = false;
}

async function load() {
  const { family, partner, before } = asked();
  const q = new URLSearchParams();
  if (family) q.set('family', family);
  if (partner) q.set('partner', partner);
  if (before) q.set('before', before);
  let r;
  try {
    r = await fetch(`/api/history/me/games?${q}`);
  } catch (e) {
    $('error').textContent = t('error.network');
    return;
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (r.status === 401) {
    $('signin').hidden = false;
  } else if (!r.ok) {
    $('error').textContent = refusalWords(r.status, data);
  } else {
    answer = data;
    draw();
  }
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), draw);
  FAMILIES = await families();
  $('filter-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.assign(address($('family').value, $('partner').value, null));
  });
  await load();
  document.body.dataset.ready = '1';
}

main();
