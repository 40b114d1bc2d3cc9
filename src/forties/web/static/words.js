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

/** An action's public text ("2 play AH", "1 discard (3 cards)") in the page's words;
 *  `you` (the reader's seat, or null) says "You play..." rather than a name. */
export function actionWords(text, seatName, you = null) {
  const parts = String(text).split(' ');
  const seat = Number(parts[0]);
  const verb = parts[1];
  const args = parts.slice(2);
  const name = seatName(seat);
  const me = you !== null && seat === you;
  switch (verb) {
    case 'play': {
      const card = cardName(args[0]);
      return me ? t('say.you.play', { card }) : t('say.play', { name, card });
    }
    case 'bid': {
      const bid = bidText(args[0]);
      return me ? t('say.you.bid', { bid }) : t('say.bid', { name, bid });
    }
    case 'pass': return me ? t('say.you.pass') : t('say.pass', { name });
    case 'hold': return me ? t('say.you.hold') : t('say.hold', { name });
    case 'raise': {
      const bid = bidText(args[0]);
      return me ? t('say.you.raise', { bid }) : t('say.raise', { name, bid });
    }
    case 'trump': {
      const suit = suitWords(args[0]);
      return me ? t('say.you.trump', { suit }) : t('say.trump', { name, suit });
    }
    case 'discard': {
      const m = /\((\d+)/.exec(text);
      const count = m ? Number(m[1]) : args.length;
      return me ? t('say.you.discard', { count }) : t('say.discard', { name, count });
    }
    case 'rob': return me ? t('say.you.rob') : t('say.rob', { name });
    case 'call': {
      if (args[0] === 'none') return me ? t('say.you.alone') : t('say.alone', { name });
      const card = cardName(args[0]);
      return me ? t('say.you.call', { card }) : t('say.call', { name, card });
    }
    default: return text;
  }
}
