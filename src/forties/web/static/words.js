// Game words shared by the table and the replay: bids, suits, actions in the page's language.
import { t } from './i18n.js';
import { cardName } from './cards.js';

export function bidText(b) {
  if (b === '30for60') return t('bid.30for60');
  if (b === '60for120') return t('bid.60for120');
  return String(b);
}

export function suitWords(s) {
  return t(`suit.${s}`);
}

/** An action's public text ("2 play AH", "1 discard (3 cards)") in the page's words. */
export function actionWords(text, seatName) {
  const parts = String(text).split(' ');
  const seat = Number(parts[0]);
  const verb = parts[1];
  const args = parts.slice(2);
  const name = seatName(seat);
  switch (verb) {
    case 'play': return t('say.play', { name, card: cardName(args[0]) });
    case 'bid': return t('say.bid', { name, bid: bidText(args[0]) });
    case 'pass': return t('say.pass', { name });
    case 'hold': return t('say.hold', { name });
    case 'raise': return t('say.raise', { name, bid: bidText(args[0]) });
    case 'trump': return t('say.trump', { name, suit: suitWords(args[0]) });
    case 'discard': {
      const m = /\((\d+)/.exec(text);
      const count = m ? Number(m[1]) : args.length;
      return t('say.discard', { name, count });
    }
    case 'rob': return t('say.rob', { name });
    case 'call': return args[0] === 'none' ? t('say.alone', { name })
      : t('say.call', { name, card: cardName(args[0]) });
    default: return text;
  }
}
