// The player's hand as he reads it: each card's marks (a trump, a card of the kitty, a card
// drawn) in words on the card and in its name; "tap to raise, tap again to play" (a choice
// kept on this device); and the undo of a table where one person plays with computers.
// The order of the cards is the server's (forties.show.sort_hand: the engine's own rank).
import { t } from './i18n.js';
import { cardLabel } from './cards.js';
import { h } from './util.js';

const RAISE_KEY = 'forties.raise';

/** Whether `card` is a trump in `view`: of the trump suit, and in the Forty-Fives the ace
 *  of hearts whatever the trump (the engine's trump order holds it); none before trump. */
export function isTrump(view, card) {
  if (!view || !view.trump) return false;
  if (card[1] === view.trump) return true;
  return view.game !== 'forty-one' && card === 'AH';
}

/** The marks of `card` in the hand: 'trump', 'kitty' (taken from the kitty), 'drawn'. */
export function cardMarks(view, card) {
  const out = [];
  if (isTrump(view, card)) out.push('trump');
  if ((view.kitty || []).includes(card)) out.push('kitty');
  else if ((view.drawn || []).includes(card)) out.push('drawn');
  return out;
}

/** A mark in the page's words. */
function markWord(mark) {
  if (mark === 'trump') return t('hand.badge.trump');
  return mark === 'kitty' ? t('hand.badge.kitty') : t('hand.badge.drawn');
}

/** The card's accessible name: its name and its marks, the words shown on it included. */
export function handLabel(view, card) {
  const marks = cardMarks(view, card);
  if (!marks.length) return cardLabel(card);
  return t('hand.card_marks', { card: cardLabel(card),
    marks: marks.map(markWord).join(t('hand.sep')) });
}

/** The words on the card (visible; the button's name says them too). */
export function cardBadges(view, card) {
  const marks = cardMarks(view, card);
  if (!marks.length) return null;
  return h('span', { class: 'marks', 'aria-hidden': 'true' },
    ...marks.map((m) => h('span', { class: `mark mark-${m}`, text: markWord(m) })));
}

// ----- the hand within the screen

/** Columns and card width for `n` cards in `width` x `height` px (the room under what is
 *  above the hand, so that the whole hand shows without scrolling): `preferred` columns if
 *  they fit, else the widest cards that do (at most `maxW`), the rows as even as they go
 *  (13 cards: 7 and 6); never narrower than 44 px (a target), even where that leaves the
 *  hand a little taller than the room. */
export function fitHand(n, width, height, gap, maxW, preferred) {
  const size = (cols) => {
    const rows = Math.ceil(n / cols);
    const across = Math.min(maxW, Math.floor((width - gap * (cols - 1)) / cols));
    const down = Math.floor((height - gap * (rows - 1)) / rows / 1.4);
    return { cols: Math.ceil(n / rows), across, w: Math.min(across, down) };
  };
  const first = size(Math.max(1, preferred));
  if (first.w === first.across && first.w >= 44) return first;
  let best = null;
  for (let cols = 1; cols <= n; cols += 1) {
    const s = size(cols);
    if (s.w >= 44 && (!best || s.w > best.w)) best = s;
  }
  if (best) return { cols: best.cols, w: best.w };
  // no room for 44-px cards: the fewest rows of them
  let cols = Math.max(1, n);
  while (cols > 1 && size(cols).across < 44) cols -= 1;
  return { cols: size(cols).cols, w: 44 };
}

/** Where the hand may begin, in page pixels: under the lowest thing drawn above it in its
 *  own column (in landscape the table stands beside it, not above). */
export function roomAbove(hand) {
  const main = hand.parentElement;
  const box = hand.getBoundingClientRect();
  let top = main.getBoundingClientRect().top;
  for (const el of main.children) {
    if (el === hand) break;
    const r = el.getBoundingClientRect();
    if (!r.height || r.right <= box.left || r.left >= box.right) continue;
    top = Math.max(top, r.bottom);
  }
  return top + window.scrollY;
}

// ----- tap to raise, tap again to play

export function raiseFirst() {
  try { return localStorage.getItem(RAISE_KEY) === '1'; } catch { return false; }
}

function setRaiseFirst(on) {
  try { localStorage.setItem(RAISE_KEY, on ? '1' : '0'); } catch { /* private mode */ }
}

/** The setting in More: a checkbox kept on this device. */
export function raiseSetting(onChange) {
  const box = h('input', { type: 'checkbox', id: 'raise-first' });
  box.checked = raiseFirst();
  box.addEventListener('change', () => { setRaiseFirst(box.checked); onChange(); });
  return h('label', { class: 'check', id: 'raise-setting' }, box,
    h('span', { text: t('hand.raise_setting') }));
}

/** A tap on a card that may be played: true when it only raises the card (the setting is
 *  on and the card was not raised yet), false when the card is to be played. `state` keeps
 *  the raised card ({ raised, version }). */
export function raiseOnly(state, card, version) {
  if (!raiseFirst()) return false;
  if (state.raised === card && state.raisedAt === version) return false;
  state.raised = card;
  state.raisedAt = version;
  return true;
}

/** The card raised at this position, if any. */
export function raisedCard(state, version) {
  return state.raisedAt === version ? state.raised : null;
}

// ----- the seats' words

/** A computer player's level in a few words that cannot be taken for a suit ("club
 *  level", not "Club player" beside "♣ Clubs" as trump). */
export function levelWords(level) {
  const short = level === 'random' ? t('level_short.random')
    : level === 'expert' ? t('level_short.expert') : t('level_short.basic');
  return short;
}

// ----- undo

/** Whether `you` may take back his last action: the only person at the table, the game
 *  being played, and the hand's last action his (the server decides; this only offers). */
export function mayUndo(view, table, you) {
  if (you === null || you === undefined || !view || !table || !table.seats) return false;
  if (table.status !== 'playing') return false;
  const people = table.seats.filter((s) => s.kind === 'person');
  if (people.length !== 1 || people[0].seat !== you || people[0].away) return false;
  const history = view.history || [];
  const [seat, verb] = (history[history.length - 1] || '').split(' ');
  if (seat !== String(you)) return false;
  // (not offered for what showed new cards: the kitty with the trump, a dealer's draw)
  return verb !== 'trump' && !(verb === 'discard' && view.dealer === you);
}

/** The undo button (sends "N undo" on the one act path). */
export function undoButton(you, send) {
  return h('button', { type: 'button', id: 'undo', class: 'act undo', text: t('hand.undo'),
    dataset: { action: `${you} undo` }, onclick: () => send(`${you} undo`) });
}
