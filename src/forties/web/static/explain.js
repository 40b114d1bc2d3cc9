// The game explained in place: what each bid means where it is chosen, the target beside
// the scores, why a Forty One hand was thrown in, and the game-over summary (the score hand
// by hand as a small chart, the bids made and set, the par against what was played).
import { t, has } from './i18n.js';
import { h } from './util.js';

const NS = 'http://www.w3.org/2000/svg';

/** The table's rule `name` (the server's values for this table), or `dflt`. */
export function ruleOf(table, name, dflt) {
  const r = table && table.rule_values;
  return r && name in r ? r[name] : dflt;
}

/** What bid `action` commits to, in words; '' where there is nothing to say. */
export function bidMeaning(action, view, table) {
  const [, verb, arg] = String(action).split(' ');
  const alone = Array.isArray(view.sides) && view.sides.every((s) => s.length === 1);
  if (view.game === 'forty-one') {
    if (verb !== 'bid') return '';
    const k = Number(arg);
    const double = ruleOf(table, 'double_from', 7);
    return t('mean.bid41', { points: k >= double ? 2 * k : k });
  }
  if (verb === 'pass') return t('mean.pass');
  if (verb === 'hold') {
    if (!view.high_bid) return '';
    return alone ? t('mean.hold_you', { bid: view.high_bid }) : t('mean.hold', { bid: view.high_bid });
  }
  if (verb !== 'bid' && verb !== 'raise') return '';
  const score = { '30for60': 60, '60for120': 120 }[arg];
  if (score) return alone ? t('mean.for_you', { score }) : t('mean.for', { score });
  const n = Number(arg);
  if (!Number.isInteger(n)) return '';
  if (n === 30 && ruleOf(table, 'made_30_scores_60', false)) return alone ? t('mean.all60_you') : t('mean.all60');
  return alone ? t('mean.bid_you', { bid: n }) : t('mean.bid', { bid: n });
}

/** The question the Forty-Fives' bids answer, over their buttons ('' for Forty One, whose
 *  own prompt asks for tricks, and where no bid is offered). */
export function bidPrompt(view, actions) {
  if (view.game === 'forty-one' || !actions.some((a) => / (bid|hold|raise) /.test(`${a} `))) return '';
  const alone = Array.isArray(view.sides) && view.sides.every((s) => s.length === 1);
  return alone ? t('prompt.bid45_you') : t('prompt.bid45');
}

/** Add the bid's meaning to its button, under its number. */
export function explainBid(button, action, view, table) {
  const meaning = bidMeaning(action, view, table);
  if (!meaning) return;
  const short = view.game === 'forty-one';
  button.appendChild(h('span', { class: short ? 'meaning short' : 'meaning', text: meaning }));
}

/** The game's target, as the score line ends: "to 120". */
export function targetWords(table) {
  const n = table && Number.isInteger(table.target) ? table.target : null;
  return n === null ? '' : t('table.to_target', { n });
}

/** A hand's note on the score pad in words: Forty One's thrown-in hand with its reason. */
export function noteWords(line, view, table) {
  if (!line || !line.note) return '';
  if (line.note === 'thrown in' && view.game === 'forty-one' && Array.isArray(line.bids)) {
    const total = line.bids.reduce((a, b) => a + (b || 0), 0);
    return t('pad.ui.thrown41', { n: total, min: ruleOf(table, 'min_total', 11) });
  }
  return has(`pad.note.${line.note}`) ? t(`pad.note.${line.note}`) : line.note;
}

// ----- the game-over summary

function svg(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

const COLOURS = ['#ffd23f', '#8fd3ff', '#ff9fb0', '#b6f08a', '#d7b4ff', '#ffc48a'];

/** The score hand by hand, a line a side, drawn with DOM nodes; its words (each side's
 *  score after each hand) are its accessible name. */
function chart(summary, names) {
  const hands = summary.hands;
  const n = hands.length + 1; // the start of the game (every score 0), then each hand
  const lines = names.length;
  const all = hands.flatMap((x) => x.scores).concat([0]);
  const lo = Math.min(...all);
  const hi = Math.max(...all, lo + 1);
  const W = 320;
  const H = 160;
  const pad = 28;
  // (right to left on a page that reads so: the game starts at the right)
  const rtl = document.documentElement.dir === 'rtl';
  const across = (i) => pad + (n > 1 ? (i * (W - 2 * pad)) / (n - 1) : (W - 2 * pad) / 2);
  const x = (i) => (rtl ? W - across(i) : across(i));
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo);
  const said = names.map((name, s) => t('summary.line', { name,
    scores: hands.map((x2) => x2.scores[s]).join(', ') })).join('; ');
  const box = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'score-chart', role: 'img',
    'aria-label': t('summary.chart', { lines: said }) });
  box.appendChild(svg('line', { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: 'axis' }));
  for (const v of [lo, hi]) {
    const label = svg('text', rtl ? { x: W - 2, y: y(v) + 4, class: 'tick', 'text-anchor': 'end', direction: 'ltr' }
      : { x: 2, y: y(v) + 4, class: 'tick' });
    label.textContent = String(v);
    box.appendChild(label);
  }
  hands.forEach((x2, i) => {
    const label = svg('text', { x: x(i + 1), y: H - 6, class: 'tick', 'text-anchor': 'middle' });
    label.textContent = String(x2.hand + 1);
    box.appendChild(label);
  });
  for (let s = 0; s < lines; s += 1) {
    const colour = COLOURS[s % COLOURS.length];
    const points = [`${x(0)},${y(0)}`, ...hands.map((x2, i) => `${x(i + 1)},${y(x2.scores[s])}`)].join(' ');
    box.appendChild(svg('polyline', { points, fill: 'none', stroke: colour, 'stroke-width': 3,
      'stroke-dasharray': s % 2 ? '6 4' : 'none' }));
    hands.forEach((x2, i) => box.appendChild(svg('circle', { cx: x(i + 1), cy: y(x2.scores[s]), r: 4,
      fill: colour })));
  }
  const key = h('ul', { class: 'chart-key', 'aria-hidden': 'true' }, ...names.map((name, s) => {
    const swatch = svg('svg', { viewBox: '0 0 24 8', width: 24, height: 8 });
    swatch.appendChild(svg('line', { x1: 0, x2: 24, y1: 4, y2: 4, stroke: COLOURS[s % COLOURS.length],
      'stroke-width': 3, 'stroke-dasharray': s % 2 ? '6 4' : 'none' }));
    return h('li', {}, swatch, h('span', { text: ` ${name}` }));
  }));
  return h('figure', { class: 'chart', id: 'score-chart' }, box, key,
    h('figcaption', { text: t('summary.chart_caption') }));
}

/** The summary section of a finished game: `names(seats)` names a side or a seat. */
export function summarySection(summary, names) {
  if (!summary || !Array.isArray(summary.hands) || !summary.hands.length) return null;
  const groups = (summary.bids || []).map((b) => b.seats);
  const parts = [h('h3', { text: t('summary.heading') }), chart(summary, groups.map(names))];
  parts.push(h('h4', { text: t('summary.bids_head') }),
    h('ul', { class: 'summary-bids' }, ...(summary.bids || []).map((b) => h('li', {
      dataset: { seats: b.seats.join(' ') },
      text: t('summary.bids', { names: names(b.seats), made: b.made, set: b.set }) }))));
  const pars = summary.hands.filter((x) => x.par);
  if (pars.length) {
    parts.push(h('h4', { text: t('summary.par_head') }),
      h('ul', { class: 'summary-pars' }, ...pars.map((x) => h('li', { dataset: { hand: x.hand },
        text: t('summary.par', { hand: x.hand + 1, names: names(x.par.seats), took: x.par.took,
          could: x.par.could }) }))));
  }
  return h('section', { class: 'summary', id: 'summary' }, ...parts);
}
