// Card faces and suit signs, drawn here as SVG (no image files, no fonts needed for the suits).
import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  H: ['M50 94C22 72 2 54 2 30C2 12 15 2 29 2C40 2 47 9 50 18C53 9 60 2 71 2C85 2 98 12 98 30C98 54 78 72 50 94Z'],
  D: ['M50 2L90 50L50 98L10 50Z'],
  S: ['M50 2C78 26 98 42 98 62C98 78 86 88 72 88C63 88 56 83 53 76C54 87 58 94 67 98L33 98C42 94 46 87 47 76C44 83 37 88 28 88C14 88 2 78 2 62C2 42 22 26 50 2Z'],
  C: ['M50 4A21 21 0 1 1 49.9 4Z', 'M26 40A21 21 0 1 1 25.9 40Z', 'M74 40A21 21 0 1 1 73.9 40Z',
    'M46 56C46 78 42 90 32 98L68 98C58 90 54 78 54 56Z'],
};

export const SUITS = ['C', 'D', 'H', 'S'];
export const isRed = (suit) => suit === 'H' || suit === 'D';

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

function suitShape(suit, x, y, size) {
  const g = el('g', { transform: `translate(${x} ${y}) scale(${size / 100})`,
    fill: isRed(suit) ? '#c8102e' : '#111' });
  for (const d of SUIT_PATHS[suit]) g.appendChild(el('path', { d }));
  return g;
}

/** A small suit sign for buttons and text (decorative: the text beside it names the suit). */
export function suitIcon(suit, size = 22) {
  const svg = el('svg', { viewBox: '0 0 100 100', width: size, height: size,
    'aria-hidden': 'true', focusable: 'false', class: 'suit-icon' });
  svg.appendChild(suitShape(suit, 0, 0, 100));
  return svg;
}

export function rankText(rank) {
  return rank === 'T' ? '10' : rank;
}

/** The card's name in the page's language, e.g. "Ace of Hearts". */
export function cardName(card) {
  return t('card.name', { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) });
}

/** The name a card's button or figure carries: its name in the page's language holding
 *  the very letters printed on its face (WCAG's label in name: a person who says what
 *  they see, or reads along, finds it): "2 of Clubs", "10 de carreau", and a face card
 *  whose word lacks its letter with the letter beside it ("roi de pique (K)"). */
export function cardLabel(card) {
  const shown = rankText(card[0]);
  if (/^[0-9]+$/.test(shown)) return t('card.name', { rank: shown, suit: t(`suit.${card[1]}`) });
  const name = cardName(card);
  return name.toLowerCase().includes(shown.toLowerCase()) ? name
    : t('card.label', { name, shown });
}

/** A card face ("AH", "TD") as an SVG element, 100 x 140 units, scaled by CSS. */
export function cardFace(card) {
  const rank = card[0];
  const suit = card[1];
  const svg = el('svg', { viewBox: '0 0 100 140', class: 'card-face', 'aria-hidden': 'true',
    focusable: 'false' });
  svg.appendChild(el('rect', { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9,
    fill: '#fff', stroke: '#222', 'stroke-width': 3 }));
  const colour = isRed(suit) ? '#c8102e' : '#111';
  const text = el('text', { x: 8, y: 38, 'font-size': 38, 'font-weight': 700,
    'font-family': 'Arial, Helvetica, sans-serif', fill: colour });
  text.textContent = rankText(rank);
  if (rank === 'T') text.setAttribute('textLength', '44');
  svg.appendChild(text);
  svg.appendChild(suitShape(suit, 9, 46, 26));
  svg.appendChild(suitShape(suit, 36, 66, 58));
  return svg;
}

/** The back of a card (for the kitty, the stock and other players' hands). */
export function cardBack() {
  const svg = el('svg', { viewBox: '0 0 100 140', class: 'card-face card-back',
    'aria-hidden': 'true', focusable: 'false' });
  svg.appendChild(el('rect', { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9,
    fill: '#1d3f8f', stroke: '#fff', 'stroke-width': 3 }));
  svg.appendChild(el('rect', { x: 12, y: 12, width: 76, height: 116, rx: 5,
    fill: 'none', stroke: '#fff', 'stroke-width': 2 }));
  return svg;
}

/** A card as a (non-interactive) figure with its name for screen readers. */
export function cardFigure(card, extraClass = '') {
  const div = document.createElement('div');
  div.className = `card ${extraClass}`.trim();
  div.setAttribute('role', 'img');
  div.setAttribute('aria-label', cardLabel(card));
  div.dataset.card = card;
  div.appendChild(cardFace(card));
  return div;
}
