// Hints that teach: the server's hint (its action, every option's value, and one reason
// from what this seat sees: forties.reasons) said in the page's words, the best choices with
// their values, cards named in full, and the cards a discard would throw marked in the hand.
import { t } from './i18n.js';
import { actionWords, bidText, suitWords } from './words.js';
import { cardName } from './cards.js';
import { h } from './util.js';

const $ = (id) => document.getElementById(id);
const SHOWN = 3; // the best choices shown beside the advice

/** Cards named in full, joined as the page joins a list. */
function names(cards) {
  return (cards || []).map(cardName).join(t('refusal.sep'));
}

/** One choice as a player says it: "Ace of Diamonds", "Throw Two of Clubs...", "Bid 20"; a
 *  discard by the shorter of what it throws and what it keeps (of `hand`). */
export function choiceWords(action, seatName, you, hand) {
  const [, verb, ...args] = String(action).split(' ');
  if (verb === 'play') return cardName(args[0]);
  if (verb === 'discard') {
    if (!args.length) return t('hint.keep_all');
    const kept = (hand || []).filter((c) => !args.includes(c));
    if (kept.length && kept.length < args.length) return t('hint.keep', { cards: names(kept) });
    return t('hint.throw', { cards: names(args) });
  }
  if (verb === 'bid') return t('hint.bid', { bid: bidText(args[0]) });
  if (verb === 'pass') return t('act.pass');
  if (verb === 'hold') return t('act.hold');
  if (verb === 'raise') return t('act.raise', { bid: bidText(args[0]) });
  if (verb === 'trump') return t('hint.trump', { suit: suitWords(args[0]) });
  return actionWords(action, seatName, you);
}

/** The advice's first words: "Hint: play the Ace of Diamonds". */
function headline(action, seatName, you, hand) {
  const [, verb, ...args] = String(action).split(' ');
  if (verb === 'play') return t('hint.play', { card: cardName(args[0]) });
  return t('hint.other', { action: choiceWords(action, seatName, you, hand) });
}

/** The reason (the server's code and params) in the page's words, or ''. */
export function reasonWords(reason, seatName) {
  if (!reason || typeof reason.code !== 'string') return '';
  const p = reason.params || {};
  const id = `hint.why.${reason.code}`;
  const text = t(id, {
    card: typeof p.card === 'string' ? cardName(p.card) : '',
    cards: Array.isArray(p.cards) ? names(p.cards) : '',
    suit: typeof p.suit === 'string' ? suitWords(p.suit) : '',
    count: Number.isInteger(p.count) ? p.count : '',
    name: Number.isInteger(p.seat) ? `\u2068${seatName(p.seat)}\u2069` : '',
    aces: p.aces ?? '', kings: p.kings ?? '', hearts: p.hearts ?? '',
  }, '');
  return text === id ? '' : text;
}

function signed(v) {
  const n = Math.round(Number(v) * 10) / 10;
  return `${n > 0 ? '+' : n < 0 ? '\u2212' : ''}${Math.abs(n).toFixed(1)}`;
}

/** The hint's words for the live region: the advice and its reason. */
export function hintSaid(hint, seatName, you) {
  const why = reasonWords(hint.reason, seatName);
  const head = headline(hint.action, seatName, you, hint.hand);
  return why ? t('hint.with_reason', { hint: head, reason: why }) : head;
}

/** Draw the hint under the status line (the advice with its reason, then the best choices
 *  with their values), or nothing where `hint` is null. */
export function renderHint(hint, seatName, you) {
  const line = $('hint-text');
  let box = $('hint-choices');
  if (!box) {
    box = h('div', { id: 'hint-choices', class: 'hint-choices' });
    line.after(box);
  }
  if (!hint) {
    line.textContent = '';
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  const said = hintSaid(hint, seatName, you);
  if (line.textContent !== said) line.textContent = said;
  const values = (Array.isArray(hint.values) ? hint.values : []).slice(0, SHOWN);
  if (values.length < 2) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  let why = '';
  if (hint.prefers === 'game') why = t('hint.prefers_game');
  else if (hint.prefers === 'sound') why = t('hint.prefers_sound');
  box.replaceChildren(h('p', { class: 'hint-head', text: t('hint.choices') }),
    ...(why ? [h('p', { class: 'hint-head prefers', text: why })] : []),
    h('ol', {}, ...values.map((v) => h('li', { dataset: { action: v.action },
      class: v.action === hint.action ? 'chosen' : '' },
    h('span', { class: 'what', text: choiceWords(v.action, seatName, you, hint.hand) }), ' ',
    h('bdi', { dir: 'ltr', class: 'num', text: signed(v.points) })))));
}

/** Mark in the hand the cards the hint plays or throws, in words too (a badge, and the
 *  card's accessible name), not only an outline. */
export function markHand(hand, hint) {
  if (!hint) return;
  const [, verb, ...cards] = String(hint.action).split(' ');
  if (verb !== 'play' && verb !== 'discard') return;
  const word = verb === 'play' ? t('hint.mark_play') : t('hint.mark_throw');
  for (const c of cards) {
    const b = hand.querySelector(`button[data-card="${c}"]`);
    if (!b) continue;
    b.classList.add('hinted');
    b.dataset.hint = verb;
    // beside the card's other marks (hand.js: trump, kitty, drawn), in words
    let marks = b.querySelector('.marks');
    if (!marks) {
      marks = h('span', { class: 'marks', 'aria-hidden': 'true' });
      b.appendChild(marks);
    }
    marks.appendChild(h('span', { class: 'mark mark-hint hint-mark', text: word }));
    b.setAttribute('aria-label', t('hint.card_marked', { card: b.getAttribute('aria-label'), mark: word }));
  }
}
