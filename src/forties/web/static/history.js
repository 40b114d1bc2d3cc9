// What the pages of an account's games share (My games, a player's page, the leaderboards):
// a game of the index in a list, names with their pages, a game's name, dates, the reason a
// rated game did not count, a statistics table and the rating-history chart.
import { t, tn, language } from './i18n.js';
import { h, computerWords } from './util.js';

const SVG = 'http://www.w3.org/2000/svg';

/** A refusal of the history's API in the reader's words (by its code; the server's own
 *  line for any other). */
export function refusalWords(status, body) {
  const code = body && typeof body.code === 'string' ? body.code : '';
  const words = {
    player: t('history.err.player'),
    family: t('history.err.family'),
    partner: t('history.err.partner'),
    before: t('history.err.before'),
    rate: t('error.code.rate'),
  };
  if (Object.prototype.hasOwnProperty.call(words, code)) return words[code];
  return (body && body.error) || t('error.server', { status });
}

/** A game family (a preset: the ratings and statistics are kept per preset) in the page's
 *  words. */
export function familyName(family) {
  return t(`preset.${family}.title`, null, family);
}

/** The game families: the server's presets, in its order. */
export async function families() {
  try {
    const r = await fetch('/api/presets');
    return r.ok ? (await r.json()).map((p) => p.name) : [];
  } catch (e) {
    return [];
  }
}

/** A game's preset (its rules) in the page's words. */
export function presetName(preset) {
  return t(`preset.${preset}.title`, null, preset);
}

/** A date (seconds since 1970) as the reader's language writes it. */
export function dateWords(seconds) {
  try {
    return new Date(seconds * 1000).toLocaleDateString(language(), { year: 'numeric', month: 'short', day: 'numeric' });
  } catch (e) {
    return new Date(seconds * 1000).toISOString().slice(0, 10);
  }
}

/** A person the server names ({id, name, former}): a link to their page, or a former
 *  player's words. */
export function personLink(p) {
  if (!p || p.former || !p.id) return h('span', { class: 'former', text: t('history.former') });
  return h('a', { href: `/players/${encodeURIComponent(p.id)}` }, h('bdi', { text: p.name }));
}

/** A seat of a game as the list shows it: an account's name (linked), a guest's name as
 *  typed, a computer player's level. */
function seatNode(seat) {
  if (!seat) return h('span', { text: '?' });
  if (seat.kind === 'computer') return h('span', { text: computerWords(seat.level || 'basic') });
  if (seat.id || seat.former) return personLink(seat);
  return h('bdi', { text: seat.name || t('table.seat_n', { seat: seat.seat + 1 }) });
}

function listOf(nodes) {
  const out = [];
  nodes.forEach((n, i) => { if (i) out.push(t('history.and_sep')); out.push(n); });
  return out;
}

/** Why a rated game did not count, in the reader's words (the server's own sentence for a
 *  reason the page does not know); `values`: the limits the sentences name, as the server
 *  sets them (the game's `why_values`). */
export function whyWords(why, values) {
  const v = values || {};
  const words = {
    not_rated_game: t('history.why.not_rated_game'),
    house_rules: t('history.why.house_rules'),
    not_marked: t('history.why.not_marked'),
    not_finished: t('history.why.not_finished'),
    guest: t('history.why.guest'),
    unrated_computer: t('history.why.unrated_computer'),
    no_account: t('history.why.no_account'),
    pairing_day: t('history.why.pairing_day', v),
    pairing_share: t('history.why.pairing_share', v),
  };
  return Object.prototype.hasOwnProperty.call(words, why) ? words[why] : (why || t('history.why.unknown'));
}

function ratingLine(g) {
  if (!g.rated) return t('history.unrated');
  if (!g.counted) return whyWords(g.why, g.why_values);
  if (!g.rating) return t('history.rated');
  const { change, after } = g.rating;
  if (change === null) return t('history.rating_now', { rating: after });
  const signed = change > 0 ? `+${change}` : String(change);
  return t('history.rating_change', { change: signed, rating: after });
}

function scoreLine(g) {
  const parts = g.sides.map((side) => {
    const names = listOf(side.seats.map((s) => seatNode(g.seats[s])));
    const score = side.score !== null && side.score !== undefined ? side.score
      : side.seats.map((s) => g.seats[s] && g.seats[s].score).filter((x) => x !== undefined && x !== null).join(' + ');
    return h('span', { class: side.mine ? 'side mine' : 'side' }, ...names, ' ', h('bdi', { class: 'num', text: String(score) }));
  });
  const out = [];
  parts.forEach((p, i) => { if (i) out.push(' · '); out.push(p); });
  return out;
}

/** One finished game in a list (``owner``: the reader's own, with the links to its hands). */
export function gameItem(g) {
  const head = `${dateWords(g.finished)} · ${presetName(g.preset)}`;
  const result = h('strong', { class: g.won ? 'won' : 'lost', text: t(g.won ? 'history.won' : 'history.lost') });
  const hands = h('ul', { class: 'hands' });
  for (let i = 1; i <= (g.hands || 0) && i <= 60; i += 1) {
    hands.appendChild(h('li', null, h('a', {
      href: `/replay?table=${encodeURIComponent(g.table)}&hand=${i}`,
      text: t('history.hand_n', { hand: i }),
    })));
  }
  const rows = [h('h3', { text: head }), h('p', null, result, ` · ${t('history.hands_played', { hands: g.hands || 0 })}`)];
  if (g.partners.length) {
    rows.push(h('p', null, `${t('history.partners')} `, ...listOf(g.partners.map((s) => seatNode(g.seats[s])))));
  }
  if (g.opponents.length) {
    rows.push(h('p', null, `${t('history.opponents')} `, ...listOf(g.opponents.map((s) => seatNode(g.seats[s])))));
  }
  rows.push(h('p', { class: 'score' }, `${t('history.score')} `, ...scoreLine(g)));
  rows.push(h('p', { class: 'rating-line' }, ratingLine(g)));
  rows.push(h('div', { class: 'row' },
    h('a', { class: 'button', href: g.replay, text: t('history.replay') }),
    h('a', { class: 'button', href: g.record, download: `forties-${g.table}.json`, text: t('history.record') })));
  if (g.hands) {
    rows.push(h('details', { class: 'hands-box' },
      h('summary', { text: t('history.hands_par') }), hands));
  }
  return h('li', { class: 'game', dataset: { table: g.table } }, ...rows);
}

/** A bid's name as the statistics key it (the record's bid values). */
function bidName(key) {
  if (key === '30for60') return t('history.bid_30for60');
  if (key === '60for120') return t('history.bid_60for120');
  return key;
}

function percent(x) {
  return x === null || x === undefined ? '–' : `${Math.round(x * 100)} %`;
}

/** A statistics tally (forties.stats) as a table: games, hands, points a hand, par, bids. */
export function statsTable(stats, caption, forty1) {
  const row = (label, value) => h('tr', null, h('th', { scope: 'row', text: label }),
    h('td', { class: 'num', text: String(value) }));
  const body = h('tbody', null,
    row(t('history.stat.games'), stats.games || 0),
    row(t('history.stat.won'), stats.won || 0),
    row(t('history.stat.hands'), stats.hands || 0),
    row(t('history.stat.hands_won'), stats.hands_won || 0),
    row(t('history.stat.points_a_hand'), stats.points_a_hand === null || stats.points_a_hand === undefined ? '–' : stats.points_a_hand),
    row(t('history.stat.par'), `${percent(stats.par_rate)} (${stats.par_equal || 0} / ${stats.par_hands || 0})`));
  const bids = Object.entries(stats.bids || {});
  if (forty1) {
    const made = bids.reduce((n, [, c]) => n + (c.made || 0), 0);
    const all = bids.reduce((n, [, c]) => n + (c.made || 0) + (c.set || 0), 0);
    body.appendChild(row(t('history.stat.forty1_made'), `${made} / ${all}`));
  }
  const table = h('table', { class: 'stats' }, h('caption', { text: caption }), body);
  const out = [h('div', { class: 'scroll' }, table)];
  if (bids.length) {
    out.push(h('div', { class: 'scroll' }, h('table', { class: 'stats bids' },
      h('caption', { text: t('history.bids_caption', { what: caption }) }),
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('history.bid') }),
        h('th', { scope: 'col', class: 'num', text: t('history.bid_made') }),
        h('th', { scope: 'col', class: 'num', text: t('history.bid_set') }))),
      h('tbody', null, ...bids.map(([k, c]) => h('tr', { dataset: { bid: k } },
        h('th', { scope: 'row', text: bidName(k) }),
        h('td', { class: 'num', text: String(c.made || 0) }),
        h('td', { class: 'num', text: String(c.set || 0) })))))));
  }
  return out;
}

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  for (const c of children) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

/** A rating's history as a line (an inline SVG, time running the way the page reads),
 *  with its points as a table for a screen reader and anyone who wants the numbers. */
export function ratingChart(family, points) {
  const id = `chart-${family}`;
  const title = t('history.chart_title', { game: familyName(family) });
  const box = h('figure', { class: 'chart', dataset: { family } });
  if (!points.length) return box;
  const W = 600; const H = 220; const PAD = 44;
  const values = points.map((p) => p.rating);
  let lo = Math.min(...values); let hi = Math.max(...values);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const rtl = document.documentElement.dir === 'rtl';
  const x = (i) => {
    const at = points.length === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (points.length - 1);
    return rtl ? W - at : at;
  };
  const y = (v) => H - PAD - ((v - lo) * (H - 2 * PAD)) / (hi - lo);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const figure = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${id}-cap`, class: 'chart-svg' },
    svg('line', { x1: PAD / 2, x2: W - PAD / 2, y1: y(hi), y2: y(hi), class: 'grid' }),
    svg('line', { x1: PAD / 2, x2: W - PAD / 2, y1: y(lo), y2: y(lo), class: 'grid' }),
    svg('text', { x: rtl ? W - 4 : 4, y: y(hi) - 6, class: 'label', 'text-anchor': rtl ? 'end' : 'start' }, String(Math.round(hi))),
    svg('text', { x: rtl ? W - 4 : 4, y: y(lo) + 18, class: 'label', 'text-anchor': rtl ? 'end' : 'start' }, String(Math.round(lo))),
    svg('polyline', { points: line, class: 'line' }),
    ...points.map((p, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 4, class: 'dot' })));
  const last = points[points.length - 1];
  const caption = h('figcaption', { id: `${id}-cap`, text: tn('history.chart_caption', points.length, {
    game: familyName(family), games: points.length, first: points[0].rating, last: last.rating }) });
  const table = h('table', { class: 'stats', id: `${id}-table` },
    h('caption', { text: title }),
    h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('history.chart_game') }),
      h('th', { scope: 'col', text: t('history.chart_date') }),
      h('th', { scope: 'col', class: 'num', text: t('history.chart_rating') }))),
    h('tbody', null, ...points.map((p, i) => h('tr', null, h('td', { class: 'num', text: String(i + 1) }),
      h('td', { text: dateWords(p.at) }), h('td', { class: 'num', text: String(p.rating) })))));
  box.append(figure, caption, h('details', { class: 'chart-table' },
    h('summary', { text: t('history.chart_as_table') }), h('div', { class: 'scroll' }, table)));
  return box;
}
