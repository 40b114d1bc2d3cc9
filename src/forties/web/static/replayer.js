// A finished hand played again on the table's own page: its seats round a felt, with the
// names the table showed, each hand's cards and the trick in the middle; play and pause,
// a step back and on, the first and the last step, and the hand's par (the best both sides
// could do from the deal, where the server has worked it out). The steps come from the
// server's replay of the table's record (POST /api/replay, as the replay page's); the
// table page gives the names, the par's words and where to put it (openReplay). Each step
// of the card play carries the par from that position (the server's, for a finished hand:
// what the bidders, or in Forty One each partnership, would take from there with every
// card seen and best play), and the step where a card changed it says so.
import { t } from './i18n.js';
import { actionWords } from './words.js';
import { cardFigure } from './cards.js';
import { api, h } from './util.js';

const PACE_MS = 1200; // one step a second and a bit, when it plays by itself

let current = null; // the replay shown: { box, steps, at, timer, ... }

/** The steps of hand `hand` (0-based) among a record's steps, from its deal on. */
function stepsOf(all, hand) {
  const deal = (s) => /^hand (\d+): the deal$/.exec(s.text || '');
  const start = all.findIndex((s) => { const m = deal(s); return m && Number(m[1]) === hand + 1; });
  if (start < 0) return [];
  let end = all.findIndex((s, i) => i > start && deal(s));
  if (end < 0) end = all.length;
  return all.slice(start, end);
}

/** The trick on the felt at a step: the one being played, or the one just taken. */
function trickOf(view) {
  if (view.trick && view.trick.cards && view.trick.cards.length) return view.trick;
  const tricks = view.tricks || [];
  return tricks.length ? { ...tricks[tricks.length - 1], done: true } : null;
}

// Where each seat sits round the felt, the page's own seat at the bottom.
const PLACES = { 2: ['bottom', 'top'], 3: ['bottom', 'left', 'right'],
  4: ['bottom', 'left', 'top', 'right'] };

function place(seat, n, you) {
  const list = PLACES[n];
  return list ? list[(seat - (you === null ? 0 : you) + n) % n] : 'around';
}

function stepText(r, step) {
  const deal = /^hand (\d+): the deal$/.exec(step.text || '');
  if (deal) return t('replay.deal', { hand: deal[1] });
  return /^\d+ [a-z]+/.test(step.text || '') ? actionWords(step.text, r.name, r.you) : (step.text || '');
}

/** A step's par as one figure (Forty-Fives: the side's points; Forty One: the first
 *  partnership's tricks), or null where the server gave none. */
function parValue(step) {
  const p = step && step.par;
  if (!p || typeof p !== 'object') return null;
  if (Array.isArray(p.teams) && p.teams.length === 2) return Number(p.teams[0].tricks);
  return Number.isFinite(p.points) ? Number(p.points) : null;
}

/** The par from this step's position, in words, and what the card changed (``r``: the
 *  replay's steps, the step shown ``at`` and ``sideName(seats)``; the replay page's too). */
export function stepPar(r) {
  const step = r.steps[r.at];
  const p = step.par;
  const now = parValue(step);
  if (now === null) {
    // (in the card play without a figure: a Forty One position too long to search)
    const view = step.view || {};
    return view.phase === 'play' && r.at > 0 && r.steps.slice(0, r.at).some((s) => s.par)
      ? t('replayer.step_unknown') : '';
  }
  let words;
  if (Array.isArray(p.teams)) {
    const [a, b] = p.teams;
    words = t('replayer.step_tricks', { names: r.sideName(a.seats), tricks: a.tricks,
      others: r.sideName(b.seats), rest: b.tricks });
  } else {
    words = t('replayer.step_points', { names: r.sideName(p.side), points: p.points });
  }
  const before = r.at > 0 ? parValue(r.steps[r.at - 1]) : null;
  if (before !== null && before !== now) {
    words += ` ${t('replayer.changed', { before, after: now })}`;
  }
  return words;
}

function show(r) {
  r.at = Math.max(0, Math.min(r.steps.length - 1, r.at));
  const step = r.steps[r.at];
  const view = step.view || {};
  const hands = Array.isArray(view.hands) ? view.hands : [];
  const n = view.players || hands.length;
  const trick = trickOf(view);
  const seats = hands.map((cards, seat) => {
    const turn = view.to_act === seat;
    return h('div', { class: `replay-seat${turn ? ' to-act' : ''}`, dataset: { seat, place: place(seat, n, r.you) } },
      h('div', { class: 'who' }, h('bdi', { text: r.name(seat) }),
        turn ? h('span', { class: 'sr-only', text: ` ${t('replay.to_act')}` }) : null),
      h('div', { class: 'cards mini' }, ...cards.map((c) => cardFigure(c))));
  });
  const middle = h('div', { class: 'replay-trick', dataset: { place: 'middle' } });
  if (trick) {
    trick.cards.forEach((c, i) => {
      const seat = (trick.leader + i) % n;
      middle.appendChild(h('div', { class: 'replay-played', dataset: { seat } },
        cardFigure(c, trick.done && trick.winner === seat ? 'win' : ''),
        h('bdi', { class: 'who', text: r.name(seat) })));
    });
  }
  r.felt.replaceChildren(...seats, middle);
  r.felt.dataset.players = String(n);
  r.text.textContent = stepText(r, step);
  r.count.textContent = t('replay.count', { at: r.at + 1, total: r.steps.length });
  r.par.textContent = r.parWords(r.hand) || '';
  r.stepPar.textContent = stepPar(r);
  const now = parValue(step);
  const before = r.at > 0 ? parValue(r.steps[r.at - 1]) : null;
  r.stepPar.dataset.changed = String(now !== null && before !== null && now !== before);
  const first = r.at === 0;
  const last = r.at === r.steps.length - 1;
  r.buttons.first.disabled = first;
  r.buttons.prev.disabled = first;
  r.buttons.next.disabled = last;
  r.buttons.last.disabled = last;
  if (last) pause(r);
  r.box.dataset.step = String(r.at);
}

function pause(r) {
  clearInterval(r.timer);
  r.timer = null;
  r.buttons.play.setAttribute('aria-pressed', 'false');
  r.buttons.play.textContent = t('replayer.play');
}

function play(r) {
  if (r.at >= r.steps.length - 1) r.at = 0;
  r.buttons.play.setAttribute('aria-pressed', 'true');
  r.buttons.play.textContent = t('replayer.pause');
  show(r);
  r.timer = setInterval(() => { r.at += 1; show(r); }, PACE_MS);
}

/** Another hand of the game, from its deal. */
function choose(r, hand) {
  const steps = stepsOf(r.all, hand);
  if (!steps.length) return;
  pause(r);
  r.hand = hand;
  r.steps = steps;
  r.at = 0;
  r.box.querySelector('h2').textContent = t('replayer.heading', { hand: hand + 1 });
  show(r);
}

/** Close the replay shown (if any); the focus goes back to the button that opened it. */
export function closeReplay() {
  if (!current) return;
  const r = current;
  current = null;
  clearInterval(r.timer);
  r.box.remove();
  // (the review may have been drawn again meanwhile: its button of the same id then)
  const back = r.opener && (r.opener.isConnected ? r.opener : document.getElementById(r.opener.id));
  if (back) back.focus();
}

/** Open hand `hand` (0-based) of table `tableId` played again, after the element `after`.
 *  `name(seat)`: a seat's name as the table shows it; `you`: this page's seat (or null);
 *  `parWords(hand)`: a hand's par in words, or '' while it is not known; `sideName(seats)`:
 *  a side's name as the table shows it. A game of several hands offers each of them (the
 *  one asked first). */
export async function openReplay({ tableId, hand, name, you, parWords, sideName, after, opener, recordUrl }) {
  closeReplay();
  const button = (id, key, onclick) => h('button', { type: 'button', id, text: t(key), onclick });
  const r = { steps: [], all: [], hand, at: 0, timer: null, name, you, parWords, opener,
    sideName: sideName || ((seats) => seats.map((s) => name(s)).join(' + ')) };
  r.buttons = {
    first: button('rp-first', 'replay.first', () => { pause(r); r.at = 0; show(r); }),
    prev: button('rp-prev', 'replay.prev', () => { pause(r); r.at -= 1; show(r); }),
    play: h('button', { type: 'button', id: 'rp-play', class: 'primary', 'aria-pressed': 'false',
      text: t('replayer.play'), onclick: () => (r.timer ? pause(r) : play(r)) }),
    next: button('rp-next', 'replay.next', () => { pause(r); r.at += 1; show(r); }),
    last: button('rp-last', 'replay.last', () => { pause(r); r.at = r.steps.length - 1; show(r); }),
  };
  r.felt = h('div', { class: 'replay-felt' });
  r.text = h('p', { class: 'step-text', id: 'rp-text', 'aria-live': 'polite' });
  r.count = h('span', { class: 'replay-count', id: 'rp-count' });
  r.par = h('p', { class: 'replay-par', id: 'rp-par' });
  r.stepPar = h('p', { class: 'replay-par step-par', id: 'rp-step-par' });
  const error = h('p', { class: 'error', role: 'alert', id: 'rp-error' });
  r.box = h('section', { id: 'replayer', class: 'panel replayer', 'aria-labelledby': 'rp-h' },
    h('h2', { id: 'rp-h', tabindex: '-1', text: t('replayer.heading', { hand: hand + 1 }) }),
    error,
    r.pick = h('label', { class: 'field', hidden: true }, h('span', { text: t('replayer.which') }),
      h('select', { id: 'rp-hand', onchange: (ev) => choose(r, Number(ev.target.value)) })),
    h('div', { class: 'row replay-buttons' }, r.buttons.first, r.buttons.prev, r.buttons.play,
      r.buttons.next, r.buttons.last, r.count),
    r.text, r.felt, r.stepPar, r.par,
    h('button', { type: 'button', id: 'rp-close', text: t('replayer.close'), onclick: closeReplay }));
  current = r;
  after.after(r.box);
  r.text.textContent = t('replayer.loading');
  r.box.querySelector('h2').focus();
  r.box.scrollIntoView({ block: 'start' });
  try {
    const record = await api(recordUrl || `/api/tables/${encodeURIComponent(tableId)}/record`);
    const answer = await api('/api/replay', { record });
    r.all = answer.steps || [];
    r.steps = stepsOf(r.all, hand);
  } catch (e) {
    error.textContent = e.message;
    r.text.textContent = '';
    return;
  }
  if (current !== r) return; // closed while it loaded
  if (!r.steps.length) { r.text.textContent = ''; error.textContent = t('replayer.none'); return; }
  const deals = r.all.filter((s) => /^hand \d+: the deal$/.test(s.text || '')).length;
  if (deals > 1) {
    r.pick.querySelector('select').replaceChildren(...Array.from({ length: deals }, (_, i) => h('option',
      { value: String(i), selected: i === hand, text: t('replay.deal', { hand: i + 1 }) })));
    r.pick.hidden = false;
  }
  show(r);
}
