// The device's own list of its recent games, kept in its localStorage only (the server
// keeps no such list): each table this device sat at, when it was last seen, who played
// and how it stood or ended. The table page notes its game as it goes (noteTable); the
// home page shows the list (recentItems) in its own language.
import { t } from './i18n.js';
import { h, computerLevel, computerWords } from './util.js';

const KEY = 'forties.recent';
const MAX = 10;

function valid(g) {
  return g && typeof g.id === 'string' && typeof g.when === 'number' && Array.isArray(g.seats);
}

/** The list, the latest first (an empty one where nothing, or something unreadable, is kept). */
export function recentGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter(valid) : [];
  } catch (e) {
    return [];
  }
}

export function forgetRecent() {
  try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
}

let noted = '';

/** Note the game at table `id` as this seat's page shows it (once a position): the
 *  table's game, its seats' names, the sides' scores, and the result once it is over. */
export function noteTable(id, table, view, you) {
  if (you === null || !table || !view || !Array.isArray(table.seats)) return;
  const mark = `${id}:${view.version}`;
  if (mark === noted) return;
  noted = mark;
  const over = view.phase === 'game-over' || Boolean(view.over);
  let won = null;
  if (over && view.winner !== null && view.winner !== undefined) {
    const w = view.winner;
    const seats = Array.isArray(w) ? w : (view.sides[w] || [w]);
    won = seats.includes(you);
  }
  const entry = {
    id, when: Date.now(), preset: table.preset || '', you,
    seats: table.seats.map((s) => ({ name: s.name || '', kind: s.kind || '', level: s.level || '' })),
    sides: Array.isArray(view.sides) ? view.sides : [],
    scores: Array.isArray(view.scores) ? view.scores : [],
    over, won,
  };
  const list = [entry, ...recentGames().filter((g) => g.id !== id)].slice(0, MAX);
  try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* a full store: not kept */ }
}

function seatWords(g, i) {
  const s = g.seats[i] || {};
  if (i === g.you) return t('table.you');
  if (s.kind === 'computer' && s.level && computerLevel(s.name) === s.level) return computerWords(s.level);
  return s.name || t('table.seat_n', { seat: i + 1 });
}

function scoreWords(g) {
  if (g.scores.length !== g.sides.length) return '';
  const two = g.sides.length === 2 && g.sides.every((side) => side.length > 1);
  return g.sides.map((side, i) => {
    const who = two ? t(side.includes(g.you) ? 'table.us' : 'table.them')
      : side.map((seat) => seatWords(g, seat)).join(' & ');
    return `${who} ${g.scores[i]}`;
  }).join(' · ');
}

/** The list as items for the home page: each a link back to its table, its game's name
 *  (`title(preset)`), when, who played and the score or the result. */
export function recentItems(title, lang) {
  return recentGames().map((g) => {
    let when = '';
    try {
      when = new Date(g.when).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
    } catch (e) { when = new Date(g.when).toISOString().slice(0, 16).replace('T', ' '); }
    const result = g.over ? t(g.won === true ? 'recent.won' : g.won === false ? 'recent.lost' : 'recent.over')
      : t('recent.playing');
    const who = g.seats.map((_, i) => seatWords(g, i)).join(', ');
    return h('li', { dataset: { table: g.id } },
      h('a', { class: 'button', href: `/t/${encodeURIComponent(g.id)}` }, title(g.preset)),
      h('span', { class: 'recent-when' }, h('time', { datetime: new Date(g.when).toISOString(), text: when })),
      h('span', { class: 'recent-who' }, h('bdi', { text: who })),
      h('span', { class: 'recent-result' }, `${result}${scoreWords(g) ? ': ' : ''}`, h('bdi', { text: scoreWords(g) })));
  });
}
