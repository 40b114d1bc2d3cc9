// Tricks a player can follow: each card moves from the hand or its seat to the trick; the
// finished trick stays with its winner in words on the felt ("Ann takes the trick") long
// enough to read, then goes to the winner. How long is the player's pace (slow, normal,
// fast), kept on this device and told to the server, whose computer players wait for it
// (forties.web.pace: its waits are these holds and sweeps, with a margin). With
// prefers-reduced-motion nothing moves: the words are shown all the same. A tap on the
// trick (or its button, for the keyboard) shows the last trick in place.
//
// Sounds (a card played, your turn, a trick taken) are made here with the Web Audio API,
// and are OFF until the player turns them on: a page that starts to beep in a quiet room
// or over a screen reader's speech surprises, and a browser keeps a page silent until it
// is tapped anyway. A phone that can vibrate does so on the player's turn (on by default,
// its own switch): it is silent, and says "your turn" to a player who looked away.
import { t } from './i18n.js';
import { h } from './util.js';

// milliseconds: a card's move to the trick; the finished trick's words before it goes to
// its winner (hold), and its going (sweep). The server waits hold + sweep and a margin
// before a computer leads (3.2 s, 2.0 s, 1.0 s), and a card's move before a computer's
// next card (1.2 s, 0.6 s, 0.3 s).
export const PACES = {
  slow: { move: 450, hold: 2600, sweep: 450 },
  normal: { move: 300, hold: 1500, sweep: 320 },
  fast: { move: 160, hold: 700, sweep: 180 },
};
const PACE_WORDS = { slow: () => t('feel.pace.slow'), normal: () => t('feel.pace.normal'),
  fast: () => t('feel.pace.fast') };
const KEYS = { pace: 'forties.pace', sounds: 'forties.sounds', vibrate: 'forties.vibrate' };

function stored(key, fallback) {
  try { return localStorage.getItem(key) ?? fallback; } catch (e) { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* kept for this page only */ }
}

const F = {
  pace: PACES[stored(KEYS.pace, 'normal')] ? stored(KEYS.pace, 'normal') : 'normal',
  sounds: stored(KEYS.sounds, 'off') === 'on',
  vibrate: stored(KEYS.vibrate, 'on') === 'on',
  conn: null,
  shown: new Set(), // the cards on the felt at the last drawing
  handRects: new Map(), // the hand's cards where they stood before this drawing
  done: null, // the finished trick: {key, winner, stage: 'hold'|'sweep'|'gone', timers}
  // the last trick shown in place on a tap (null: not shown): until a tap again, the next
  // trick finished, or the player's turn begun or ended (never hiding the trick to answer)
  peek: null, // {hand, tricks, mine}
  you: null,
  peeked: false, // whether the last drawing showed it
  view: null, // the view drawn last
  last: null, // and the one before it
  redraw: () => {},
  audio: null,
};

function reduced() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function pace() {
  return PACES[F.pace];
}

// ---------------------------------------------------------------- the pace, told

/** Tell the server this page's pace (after hello: on each snapshot, and when it changes). */
export function tellPace(conn) {
  F.conn = conn;
  if (conn) conn.send({ type: 'pace', pace: F.pace });
}

// ---------------------------------------------------------------- the finished trick

function finishedKey(view) {
  const tricks = view.tricks || [];
  const open = view.trick && view.trick.cards && view.trick.cards.length;
  if (!tricks.length || open) return null;
  return `${view.hand_index}:${tricks.length}`;
}

/** Whether the hand's last trick is still held on the felt (its review waits under it). */
export function holding(view) {
  return Boolean(F.done && F.done.stage !== 'gone' && F.done.key === finishedKey(view));
}

/** Whether the felt shows the trick just finished as gone to its winner. */
function gone(view) {
  return Boolean(F.done && F.done.stage === 'gone' && F.done.key === finishedKey(view));
}

/** The trick the felt shows in place of table.js's own: the last finished trick while it is
 *  shown on a tap, nothing once the finished trick has gone to its winner; else undefined
 *  (table.js's own: the trick being played, or the one just finished). */
export function shownInstead(view) {
  const tricks = view.tricks || [];
  if (peekStands(view)) {
    return { ...tricks[tricks.length - 1], done: true, peek: true };
  }
  if (gone(view)) return null;
  if (holding(view) && view.phase !== 'play') return { ...tricks[tricks.length - 1], done: true };
  return undefined;
}

function clearDone() {
  if (F.done) for (const id of F.done.timers) clearTimeout(id);
  F.done = null;
}

function startDone(view) {
  clearDone();
  const key = finishedKey(view);
  const tr = view.tricks[view.tricks.length - 1];
  const p = pace();
  const done = { key, hand: view.hand_index, winner: tr.winner, stage: 'hold', timers: [] };
  F.done = done;
  // counted from the end of this drawing (the words are on the screen from then)
  queueMicrotask(() => {
    done.timers.push(setTimeout(() => {
      if (F.done !== done) return;
      done.stage = 'sweep';
      // (the next trick may have begun meanwhile: its cards stay where they are)
      if (F.view && finishedKey(F.view) === done.key) {
        sweep(document.getElementById('felt'), done.winner, p.sweep);
      }
    }, p.hold));
    done.timers.push(setTimeout(() => {
      if (F.done !== done) return;
      done.stage = 'gone';
      F.redraw();
    }, p.hold + p.sweep));
  });
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** The finished trick's cards go to the winner's seat (nothing moves with reduced motion). */
function sweep(felt, winner, ms) {
  if (!felt || reduced()) return;
  const to = felt.querySelector(`.badge[data-seat="${winner}"]`);
  if (!to) return;
  const end = centre(to);
  for (const fig of felt.querySelectorAll('.played .card')) {
    const c = centre(fig);
    fig.animate([{ transform: 'none', opacity: 1 },
      { transform: `translate(${end.x - c.x}px, ${end.y - c.y}px) scale(0.35)`, opacity: 0 }],
    { duration: ms, easing: 'ease-in', fill: 'forwards' });
  }
}

// ---------------------------------------------------------------- drawing

/** Before table.js draws `view` (seen by seat `you`): where the hand's cards stand (a card
 *  played moves from there), and whether a trick has just finished. */
export function beforeDraw(view, you) {
  F.handRects = new Map([...document.querySelectorAll('#hand button.card')]
    .map((b) => [b.dataset.card, b.getBoundingClientRect()]));
  F.last = F.view;
  F.view = view;
  F.you = you;
  if (!peekStands(view)) F.peek = null;
  const key = finishedKey(view);
  // a finished trick is held from the moment it is seen finished in play (a review opened
  // on arriving at the table is not held)
  const last = F.last;
  const seen = view.phase === 'play' || (last && last.phase === 'play' && last.hand_index === view.hand_index);
  if (key && seen && (!F.done || F.done.key !== key)) startDone(view);
  else if (F.done && view.hand_index !== F.done.hand) clearDone();
}

/** After table.js has drawn the felt: the new cards move in, the finished trick's words,
 *  the last trick's button. `name(seat)` is the seat's name as the page says it. */
export function afterFelt(felt, view, you, name) {
  const last = F.last;
  const key = finishedKey(view);
  const peeking = F.peek !== null;
  felt.classList.toggle('peeking', peeking);
  const figs = [...felt.querySelectorAll('.played .card')];
  const now = new Set(figs.map((f) => f.dataset.card));
  if (last && !reduced() && !peeking && !F.peeked) {
    for (const fig of figs) if (!F.shown.has(fig.dataset.card)) moveIn(fig, felt);
  }
  F.shown = now;
  F.peeked = peeking;
  const sweeping = F.done && F.done.key === key && F.done.stage === 'sweep';
  if (sweeping && !peeking && !reduced()) for (const fig of figs) fig.classList.add('swept');
  const tricks = view.tricks || [];
  let words = '';
  if (peeking && tricks.length) {
    const w = tricks[tricks.length - 1].winner;
    words = w === you ? t('feel.last.you') : t('feel.last', { name: name(w) });
  } else if (F.done && F.done.stage !== 'gone') {
    // (said for as long as the pace holds it, even once the next trick has begun)
    words = F.done.winner === you ? t('say.you.trick') : t('say.trick', { name: name(F.done.winner) });
  }
  const peek = document.getElementById('peek');
  if (peek) {
    peek.hidden = !(view.phase === 'play' && tricks.length);
    peek.setAttribute('aria-pressed', String(peeking));
    peek.textContent = t('table.last_trick');
  }
  if (words) placeWords(felt, h('p', { class: 'trick-words', id: 'trick-words', text: words }), figs);
}

/** The words go on the felt just under the trick's lowest card (over no seat's name), kept
 *  inside the felt. */
function placeWords(felt, p, figs) {
  felt.appendChild(p);
  const box = felt.getBoundingClientRect();
  const bottom = Math.max(0, ...figs.map((f) => f.getBoundingClientRect().bottom - box.top));
  const top = Math.min(bottom + 6, box.height - p.offsetHeight);
  p.style.top = `${Math.max(0, top)}px`;
}

function moveIn(fig, felt) {
  const card = fig.dataset.card;
  let from = F.handRects.get(card);
  if (!from) {
    const seat = fig.closest('.seat, .mid');
    const badge = seat && seat.querySelector('.badge');
    from = badge ? badge.getBoundingClientRect() : null;
  }
  if (!from || !felt.isConnected) return;
  const to = fig.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  fig.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.7 },
    { transform: 'none', opacity: 1 }], { duration: pace().move, easing: 'ease-out' });
}

function peekState(view) {
  return { hand: view.hand_index, tricks: (view.tricks || []).length,
    mine: F.you !== null && view.to_act === F.you };
}

function peekStands(view) {
  if (F.peek === null || view.phase !== 'play') return false;
  const now = peekState(view);
  return now.tricks > 0 && now.hand === F.peek.hand && now.tricks === F.peek.tricks &&
    now.mine === F.peek.mine;
}

function togglePeek(view, fromButton = false) {
  F.peek = F.peek === null ? peekState(view) : null;
  F.redraw();
  if (fromButton) document.getElementById('peek')?.focus();
  const words = document.getElementById('trick-words');
  if (F.peek !== null && words) {
    // read out as it is shown: who took it, and its cards by name
    const cards = [...document.querySelectorAll('#felt .played .card')]
      .map((c) => c.getAttribute('aria-label')).join(t('refusal.sep'));
    say(`${words.textContent}. ${cards}`);
  }
}

/** A line for screen readers, in the page's live region (as table.js's announce). */
function say(text) {
  const box = document.getElementById('announce');
  if (!box) return;
  box.appendChild(h('p', { text }));
  while (box.childNodes.length > 4) box.removeChild(box.firstChild);
}

// ---------------------------------------------------------------- sounds and vibration

function audio() {
  if (!F.sounds) return null;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!F.audio) F.audio = new Ctx();
  if (F.audio.state === 'suspended') F.audio.resume().catch(() => {});
  return F.audio;
}

/** A few tones: [frequency Hz, start s, length s], of one wave, softly. */
function tones(list, wave = 'sine', volume = 0.12) {
  const ctx = audio();
  if (!ctx) return;
  const at = ctx.currentTime + 0.01;
  for (const [freq, start, len] of list) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.setValueAtTime(freq, at + start);
    gain.gain.setValueAtTime(volume, at + start);
    gain.gain.exponentialRampToValueAtTime(0.001, at + start + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at + start);
    osc.stop(at + start + len + 0.02);
  }
}

export const SOUNDS = {
  card: () => tones([[220, 0, 0.07]], 'triangle', 0.2),
  turn: () => tones([[660, 0, 0.12], [880, 0.13, 0.18]]),
  trick: () => tones([[523, 0, 0.1], [392, 0.09, 0.16]], 'triangle', 0.15),
};

/** What a new position says aloud: a card played, a trick taken, the player's turn. */
export function heard(before, view, ev, you) {
  if (!before || !view) return;
  if (ev && ev.kind === 'act' && String(ev.text || '').split(' ')[1] === 'play') {
    const took = (view.tricks || []).length > (before.tricks || []).length;
    if (took) SOUNDS.trick(); else SOUNDS.card();
  }
  const mine = you !== null && view.to_act === you && (view.legal || []).length > 0;
  if (mine && before.to_act !== you) {
    SOUNDS.turn();
    if (F.vibrate && typeof navigator.vibrate === 'function') {
      try { navigator.vibrate(80); } catch (e) { /* not allowed here */ }
    }
  }
}

// ---------------------------------------------------------------- the controls

/** The pace and the switches, in `box` (the More panel); `redraw` draws the table again. */
export function setupFeel(box, redraw) {
  F.redraw = redraw;
  // the last trick's button, for the keyboard and the screen reader, beside the status line
  // (a tap on the trick itself does the same)
  document.querySelector('.statusrow').appendChild(h('button', { type: 'button', class: 'peek',
    id: 'peek', hidden: true, 'aria-pressed': 'false', text: t('table.last_trick'),
    onclick: () => { if (F.view) togglePeek(F.view, true); } }));
  document.getElementById('felt').addEventListener('click', (ev) => {
    if (!ev.target.closest('.played, .trick-words') || !F.view) return;
    if ((F.view.tricks || []).length && F.view.phase === 'play') togglePeek(F.view);
  });
  drawControls(box);
}

export function drawControls(box) {
  const paceButtons = Object.keys(PACES).map((p) => h('button', { type: 'button',
    dataset: { pace: p }, 'aria-pressed': String(p === F.pace), text: PACE_WORDS[p](),
    onclick: () => {
      F.pace = p;
      store(KEYS.pace, p);
      tellPace(F.conn);
      drawControls(box);
      box.querySelector(`button[data-pace="${p}"]`)?.focus();
    } }));
  const sounds = h('input', { type: 'checkbox', id: 'sounds' });
  sounds.checked = F.sounds;
  sounds.addEventListener('change', () => {
    F.sounds = sounds.checked;
    store(KEYS.sounds, F.sounds ? 'on' : 'off');
    if (F.sounds) SOUNDS.turn(); // (heard now, at the tap that allows it)
  });
  const parts = [h('fieldset', { class: 'pace' }, h('legend', { text: t('feel.pace') }),
    h('div', { class: 'row' }, ...paceButtons), h('p', { class: 'muted', text: t('feel.pace.help') })),
  h('label', { class: 'check' }, sounds, h('span', { text: t('feel.sounds') }))];
  if (typeof navigator.vibrate === 'function') {
    const vib = h('input', { type: 'checkbox', id: 'vibrate' });
    vib.checked = F.vibrate;
    vib.addEventListener('change', () => {
      F.vibrate = vib.checked;
      store(KEYS.vibrate, F.vibrate ? 'on' : 'off');
    });
    parts.push(h('label', { class: 'check' }, vib, h('span', { text: t('feel.vibrate') })));
  }
  box.replaceChildren(...parts);
}
