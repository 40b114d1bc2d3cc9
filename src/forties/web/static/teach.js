// A first game that teaches: each rule of the table's game said in one short note at the
// moment it first matters (the bidding, the order of trumps, the kitty and the draw,
// reneging, following, robbing, the lock, Forty One's bids), written from the rules this
// table plays (the server's rule_values), each note once. Chosen on the home page ("learn"
// in the table's address) or in More; kept on this device, for this table.
import { t } from './i18n.js';
import { cardName } from './cards.js';
import { h } from './util.js';
import { ruleOf } from './explain.js';

const $ = (id) => document.getElementById(id);
const TABLE = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
const KEY = `forties.teach.${TABLE}`;

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || 'null') || { on: false, seen: [] }; } catch (e) {
    return { on: false, seen: [] };
  }
}

function save(state) {
  try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* this page only */ }
}

let state = load();
// the home page's "teach me" comes in the address, before table.js takes the hash away
if (new URLSearchParams(location.hash.slice(1)).get('learn') === '1') {
  state = { ...state, on: true };
  save(state);
}
let shown = null; // the topic on screen

export function teaching() {
  return state.on;
}

/** The notes that matter at this view, in the order they come up: [topic, text]. */
function topics(view, table, you) {
  const out = [];
  const mine = you !== null && view.to_act === you;
  const trick = view.trick && view.trick.cards ? view.trick.cards : [];
  if (view.game === 'forty-one') {
    if (view.phase === 'auction') {
      out.push(['bid41', t('teach.bid41', { min: ruleOf(table, 'min_total', 11),
        double: ruleOf(table, 'double_from', 7) })]);
    }
    if (view.phase === 'play') out.push(['play41', t('teach.play41')]);
    if (view.phase === 'hand-over' || view.over) {
      const target = ruleOf(table, 'target', 41);
      out.push(['win41', ruleOf(table, 'partner_positive', true) ? t('teach.win41', { target })
        : t('teach.win41_first', { target })]);
    }
    return out;
  }
  const auction = ruleOf(table, 'auction', 'single') !== 'none';
  if (view.phase === 'auction' && auction) {
    const min = ruleOf(table, 'min_bid', 15);
    const bagged = ruleOf(table, 'all_pass', 'dealer-bagged') === 'dealer-bagged';
    const bonus = ruleOf(table, 'bonus', 'best-trump') === 'five-only' ? t('teach.bonus_five')
      : t('teach.bonus_best');
    out.push(['bidding', [t('teach.bidding', { min }), bonus,
      bagged ? t('teach.bagged', { min }) : t('teach.redeal')].join(' ')]);
  }
  const lock = ruleOf(table, 'lock_at', null);
  if (lock !== null && Array.isArray(view.scores) && view.scores.some((s) => s >= lock)) {
    out.push(['lock', t('teach.lock', { n: lock })]);
  }
  if (view.trump && view.phase !== 'auction') {
    const s = view.trump;
    const cards = { five: cardName(`5${s}`), jack: cardName(`J${s}`), ace: cardName(`A${s}`),
      ah: cardName('AH') };
    const red = s === 'D' ? t('teach.trumps_red', cards) : t('teach.trumps_black', cards);
    out.push(['trumps', s === 'H' ? t('teach.trumps_hearts', cards) : red]);
  }
  if (view.phase === 'rob' && mine && view.up_card) {
    out.push(['rob', t('teach.rob', { card: cardName(view.up_card) })]);
  }
  if (view.phase === 'draw' && mine) {
    const kitty = ruleOf(table, 'kitty', 3);
    const keep = ruleOf(table, 'keep_min', 1);
    out.push(['draw', (kitty ? `${t('teach.kitty', { count: kitty })} ` : '')
      + t('teach.draw', { keep })]);
  }
  if (view.phase === 'play' && mine && trick.length) {
    const led = trick[0];
    const ledTrump = led[1] === view.trump || led === 'AH';
    const renege = ruleOf(table, 'renege', 'top3');
    const reneging = renege === 'top3' ? t('teach.renege_top3') : t('teach.renege_five');
    if (ledTrump) out.push(['renege', renege === 'none' ? t('teach.renege_none') : reneging]);
    else {
      const either = ruleOf(table, 'follow', 'trump-only') === 'suit-or-trump';
      out.push(['follow', either ? t('teach.follow_suit') : t('teach.follow_any')]);
    }
  }
  return out;
}

function box() {
  let b = $('teach');
  if (!b) {
    b = h('div', { id: 'teach', class: 'teach', role: 'status', hidden: true });
    $('hint-text').before(b);
  }
  return b;
}

/** Show the first note of this view not yet seen (or keep the one on screen). */
export function renderTeach(view, table, you) {
  const b = box();
  if (!state.on || !view) { b.hidden = true; b.replaceChildren(); shown = null; return; }
  const next = topics(view, table, you).find(([topic]) => !state.seen.includes(topic));
  if (!next) return; // the note on screen stays until it is dismissed or another comes
  const [topic, text] = next;
  state = { ...state, seen: [...state.seen, topic] };
  save(state);
  shown = topic;
  b.hidden = false;
  b.dataset.topic = topic;
  b.replaceChildren(h('p', {}, h('b', { text: `${t('teach.title')} ` }), h('span', { class: 'text', text })),
    h('button', { type: 'button', class: 'dismiss', text: t('teach.ok'),
      onclick: () => { b.hidden = true; b.replaceChildren(); shown = null; } }));
}

/** The switch in More: teach the rules as they come up, on this table. */
export function teachSwitch(onChange) {
  const input = h('input', { type: 'checkbox', id: 'teach-on' });
  input.checked = state.on;
  input.addEventListener('change', () => {
    state = { ...state, on: input.checked };
    save(state);
    onChange();
  });
  return h('label', { class: 'check', id: 'teach-switch' }, input, h('span', { text: t('teach.switch') }));
}

export function shownTopic() {
  return shown;
}
