// Step through a finished game's record: from a table (?table=ID, and &hand=N to open it at
// hand N's deal) or a file the player opens.
// The server turns the record into one spectator's view per step, every hand shown.
import { t, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { cardFigure, suitIcon } from './cards.js';
import { actionWords } from './words.js';
import { api, h, computerLevel, computerWords } from './util.js';
import { stepPar } from './replayer.js';
import './theme.js';

const $ = (id) => document.getElementById(id);
let steps = [];
let at = 0;
let names = [];

/** A name the server wrote in the record, in the page's words: the Play-now player's "You",
 *  a computer player's "Computer (level)"; a person's own name as it is. */
function nameWords(name) {
  if (name === 'You') return t('table.you');
  const level = computerLevel(name);
  if (level) return computerWords(level);
  return name;
}

function seatName(seat) {
  const name = names[seat];
  if (!name) return t('table.seat_n', { seat: seat + 1 });
  // two computer players of one level share a name: the seat tells them apart
  const words = nameWords(name);
  return names.filter((x) => x === name).length > 1 ? `${words} ${seat + 1}` : words;
}

function stepWords(text) {
  const deal = /^hand (\d+): the deal$/.exec(text || '');
  if (deal) return t('replay.deal', { hand: deal[1] });
  // the Play-now player is "you": "You bid 30", not "You bids 30"
  const you = names.indexOf('You');
  return /^\d+ [a-z]+/.test(text || '') ? actionWords(text, seatName, you < 0 ? null : you) : (text || '');
}

/** The trick on the table at this step: the one being played, or the one just finished. */
function trickOf(view) {
  if (view.trick && view.trick.cards && view.trick.cards.length) return view.trick;
  const tricks = view.tricks || [];
  return tricks.length && view.phase !== 'auction' ? { ...tricks[tricks.length - 1], done: true } : null;
}

/** Every hand of a step: the view's own "hands" if it has them, else the deal's. */
function handsOf(view) {
  if (Array.isArray(view.hands)) return view.hands;
  if (view.deal && Array.isArray(view.deal.hands)) return view.deal.hands;
  return [];
}

function show() {
  if (!steps.length) return;
  at = Math.max(0, Math.min(steps.length - 1, at));
  const step = steps[at];
  const view = step.view || {};
  $('slider').value = String(at);
  $('count').textContent = t('replay.count', { at: at + 1, total: steps.length });
  $('step-text').textContent = stepWords(step.text);
  $('step-par').textContent = stepPar({ steps, at, sideName: (seats) => seats.map(seatName).join(' + ') });
  const sides = view.sides || [];
  const scores = view.scores || [];
  $('scores').textContent = scores.length === sides.length
    ? sides.map((s, i) => `${s.map(seatName).join(' & ')} ${scores[i]}`).join(' · ')
    : scores.map((s, i) => `${seatName(i)} ${s}`).join(' · ');
  $('trump').replaceChildren(...(view.trump ? [suitIcon(view.trump, 24),
    ` ${t('table.trump', { suit: t(`suit.${view.trump}`) })}`] : []));
  const trick = trickOf(view);
  const n = view.players || handsOf(view).length;
  $('hands').replaceChildren(...handsOf(view).map((cards, seat) => {
    let played = null;
    if (trick) {
      const i = (seat - trick.leader + n) % n;
      if (i < trick.cards.length) {
        played = cardFigure(trick.cards[i], trick.done && trick.winner === seat ? 'win' : '');
      }
    }
    // whose turn: an arrow pointing at the name (mirrored in Arabic), said in words
    const turn = view.to_act === seat ? [' ', h('span', { 'aria-hidden': 'true',
      text: document.documentElement.dir === 'rtl' ? '▶' : '◀' }),
    h('span', { class: 'sr-only', text: ` ${t('replay.to_act')}` })] : [];
    return h('div', { dataset: { seat } },
      h('div', { class: 'who' }, seatName(seat), ...turn),
      h('div', { class: 'cards mini' }, played ? h('span', { class: 'played-now' }, played) : null,
        ...cards.map((c) => cardFigure(c))));
  }));
  const active = document.activeElement;
  $('prev').disabled = at === 0;
  $('first').disabled = at === 0;
  $('next').disabled = at === steps.length - 1;
  $('last').disabled = at === steps.length - 1;
  // the button just pressed is now disabled: the focus goes to the way back (or on)
  if (active && active.disabled) {
    const other = at === 0 ? $('next') : $('prev');
    if (!other.disabled) other.focus();
  }
  document.body.dataset.step = String(at);
}

/** The step where hand `hand` (1-based) is dealt, or 0 where the record has no such hand. */
function dealOf(hand) {
  const i = steps.findIndex((s) => s.text === `hand ${hand}: the deal`);
  return i < 0 ? 0 : i;
}

async function load(record, hand) {
  $('error').textContent = '';
  names = Array.isArray(record && record.players)
    ? record.players.map((p) => (typeof p === 'string' ? p : (p && p.name) || '')) : [];
  try {
    const r = await api('/api/replay', { record });
    steps = r.steps || [];
  } catch (e) {
    $('error').textContent = e.message;
    return;
  }
  at = hand ? dealOf(hand) : 0;
  $('slider').max = String(Math.max(0, steps.length - 1));
  $('player').hidden = false;
  show();
  document.body.dataset.ready = '1';
  $('next').focus();
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), show);
  $('first').addEventListener('click', () => { at = 0; show(); });
  $('prev').addEventListener('click', () => { at -= 1; show(); });
  $('next').addEventListener('click', () => { at += 1; show(); });
  $('last').addEventListener('click', () => { at = steps.length - 1; show(); });
  $('slider').addEventListener('input', () => { at = Number($('slider').value); show(); });
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== 'range') return;
    const rtl = document.documentElement.dir === 'rtl';
    if (ev.key === (rtl ? 'ArrowLeft' : 'ArrowRight')) { at += 1; show(); }
    if (ev.key === (rtl ? 'ArrowRight' : 'ArrowLeft')) { at -= 1; show(); }
  });
  $('file').addEventListener('change', async () => {
    const f = $('file').files[0];
    if (!f) return;
    let record;
    try {
      record = JSON.parse(await f.text());
    } catch (e) {
      $('error').textContent = t('replay.not_json');
      return;
    }
    load(record);
  });
  const table = new URLSearchParams(location.search).get('table');
  if (table) {
    try {
      // ?hand=N: the game opened at hand N's deal (My games' links to each hand)
      const hand = Number(new URLSearchParams(location.search).get('hand') || '0');
      load(await api(`/api/tables/${encodeURIComponent(table)}/record`),
        Number.isInteger(hand) && hand > 0 ? hand : 0);
    } catch (e) {
      $('error').textContent = e.message;
    }
  } else {
    document.body.dataset.ready = '1';
  }
}

main();
