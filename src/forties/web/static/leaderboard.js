// The leaderboards: a game's active players (a counted rated game in the last days the
// server says), ranked by rating; provisional players listed apart, unranked.
import { t, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { h } from './util.js';
import { families, familyName, personLink, refusalWords } from './history.js';
import './theme.js';

const $ = (id) => document.getElementById(id);
let data = null;
let FAMILIES = [];

function draw() {
  const family = data ? data.family : '';
  $('family').replaceChildren(...FAMILIES.map((p) => h('option', { value: p, text: familyName(p), selected: p === family })));
  if (!data) return;
  $('board-h').textContent = familyName(data.family);
  document.title = t('history.board_of', { game: familyName(data.family) });
  $('board-help').textContent = t('history.board_help', { days: data.active_days });
  $('players').replaceChildren(...data.players.map((p) => h('tr', { dataset: { id: p.id } },
    h('td', { class: 'num', text: String(p.rank) }), h('td', null, personLink(p)),
    h('td', { class: 'num', text: String(p.rating) }), h('td', { class: 'num', text: String(p.games) }))));
  $('board-empty').hidden = data.players.length > 0;
  $('provisional').replaceChildren(...data.provisional.map((p) => h('tr', { dataset: { id: p.id } },
    h('td', null, personLink(p)), h('td', { class: 'num', text: String(p.rating) }),
    h('td', { class: 'num', text: String(p.games) }))));
  $('prov-empty').hidden = data.provisional.length > 0;
  $('prov').hidden = data.provisional.length === 0;
  $('board').hidden = data.players.length === 0;
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), draw);
  FAMILIES = await families();
  const asked = decodeURIComponent(location.pathname.split('/')[2] || '') || FAMILIES[0] || 'merrimack-valley';
  $('pick').addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.assign(`/leaderboard/${encodeURIComponent($('family').value)}${location.search}`);
  });
  try {
    const r = await fetch(`/api/history/leaderboard/${encodeURIComponent(asked)}`);
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new Error(refusalWords(r.status, body));
    data = body;
  } catch (e) {
    $('error').textContent = e instanceof TypeError ? t('error.network') : e.message;
  }
  draw();
  document.body.dataset.ready = '1';
}

main();
