// The table: every byte of the game comes from the server's view frames (the engine's view of
// this seat); the page draws it, offers only the legal choices, and sends the one chosen.
import { t, tn, has, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { Connection } from './net.js';
import { actionWords as words, bidText, suitWords } from './words.js';
import { cardFace, cardFigure, cardLabel, cardName, suitIcon } from './cards.js';
import { showBeside } from './nearby.js';
import { noteTable } from './recent.js';
import { openReplay } from './replayer.js';
import { afterFelt, beforeDraw, drawControls, heard, holding, setupFeel, shownInstead, tellPace } from './feel.js';
import './theme.js';
import { renderHint, markHand, hintSaid } from './hints.js';
import { explainBid, bidPrompt, targetWords, noteWords, summarySection } from './explain.js';
import { renderTeach, teachSwitch } from './teach.js';
import { inviteBlock } from './regulars.js';
import { api, saveSeat, savedSeat, savedInvites, savedName, saveName, absolute, h, copyText, LEVELS,
  errorText, valueText, computerLevel } from './util.js';
import { cardBadges, fitHand, handLabel, levelWords, mayUndo, raiseOnly, raiseSetting,
  raisedCard, roomAbove, undoButton } from './hand.js';

const $ = (id) => document.getElementById(id);
const PHRASES = ['hearts-on-hearts', 'well-played', 'sorry-partner', 'good-game', 'hurry', 'thanks'];

const S = {
  tableId: decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || ''),
  token: null,
  conn: null,
  you: null,
  table: null,
  view: null,
  pad: [],
  chat: [],
  par: {},
  ready: new Set(),
  selected: new Set(),
  selKey: '',
  pending: null, // the version an action was sent on, until the next view or an error
  deadline: null, // the turn timer's end on this device's clock (from the seconds left)
  left: new Set(), // the seats whose person has left the table (presence frames)
  hint: null,
  refusal: '',
};

// ---------------------------------------------------------------- names and words

/** Forty One, by the view's (or the table summary's) game. */
function fortyOne(view) {
  return view.game === 'forty-one';
}

/** The name a Play-now table stores for the person who started it: "You", the record's word
 *  for him (as `forties play` writes it, and as the replay reads it). It is no name for
 *  anyone else: a spectator's page calls him "Player 1" in its own language. */
const PLAY_NOW_NAME = 'You';

/** A seat's own name: a person's, or a computer player's that a hall registered; not the
 *  "Computer (level)" every other computer player carries (as the server's seat_label), nor
 *  the Play-now player's "You". */
function ownName(s) {
  if (!s || !s.name || (s.kind !== 'person' && s.kind !== 'computer')) return null;
  if (s.kind === 'person' && s.name === PLAY_NOW_NAME) return null;
  return s.kind === 'computer' && computerLevel(s.name) === s.level ? null : s.name;
}

function seatName(seat) {
  const s = S.table && S.table.seats ? S.table.seats.find((x) => x.seat === seat) : null;
  if (seat === S.you) return t('table.you');
  const name = ownName(s);
  if (name) {
    const same = S.table.seats.filter((x) => ownName(x) === name).length > 1;
    return same ? `${name} ${seat + 1}` : name;
  }
  if (s && s.kind === 'computer') return t('table.computer_n', { seat: seat + 1 });
  if (s && s.kind === 'person') return t('table.player_n', { seat: seat + 1 });
  return t('table.seat_n', { seat: seat + 1 });
}

function sideName(side) {
  return side.map(seatName).join(' & ');
}

/** Message `id` for a sentence whose subject is the side `seats`, so that its verb agrees
 *  with it (French): `id_you` when the reader is one of them ("Vous pouviez"), `id_one` for
 *  one other seat ("Ordinateur 2 pouvait"), else `id` ("Ordinateur 2 & Ordinateur 4
 *  pouvaient"); `one` false where a side is always two or more. */
function sideKey(id, seats, one = true) {
  if (S.you !== null && seats.includes(S.you)) return `${id}_you`;
  return one && seats.length === 1 ? `${id}_one` : id;
}

// ----- Forty One's words: its rules, partners named in the reader's language, numbers kept
// left to right (a negative score reads "-3" in an Arabic line too)

/** A Forty One rule of this table: the house rule if the host set one, else the preset's. */
function rule41(view, name) {
  const opts = (view.rules && view.rules.options) || {};
  const dflt = { target: 41, min_total: 11, double_from: 7, partner_positive: true, tie: 'lower-partner' };
  return name in opts ? opts[name] : dflt[name];
}

/** "You and Computer 3" in the page's words (for a partnership), each name isolated so that
 *  a Latin name keeps its order in an Arabic line. */
function partnersName(seats) {
  const [a, b] = seats.map((s) => `\u2068${seatName(s)}\u2069`);
  return seats.length === 2 ? t('pad.ui.and', { a, b }) : seats.map(seatName).join(', ');
}

/** A number isolated left to right, its sign first whatever the line's direction. */
function num(n, signed = false) {
  return h('bdi', { dir: 'ltr', class: 'num', text: signed && n > 0 ? `+${n}` : String(n) });
}

/** Message `id` as nodes: the fields named in `nums` as isolated numbers, the rest text. */
function tNodes(id, params, nums) {
  return t(id).split(/\{(\w+)\}/).map((part, i) => {
    if (i % 2 === 0) return part;
    if (nums.includes(part)) return num(params[part], true);
    return part in params ? String(params[part]) : `{${part}}`;
  });
}

/** Why a Forty One game ended on these scores (the score pad's words), or ''. */
function reason41(view) {
  const sc = view.scores;
  const target = rule41(view, 'target');
  const positive = rule41(view, 'partner_positive');
  const teams = [[0, 2], [1, 3]].filter(([a, b]) => [[a, b], [b, a]].some(([p, q]) =>
    sc[p] >= target && (!positive || sc[q] > 0)));
  if (!teams.length) return '';
  if (teams.length === 1) return positive ? t('pad.ui.why.positive', { n: target }) : t('pad.ui.why.first', { n: target });
  return rule41(view, 'tie') === 'lower-partner' ? t('pad.ui.why.tie_lower', { n: target })
    : t('pad.ui.why.tie_total', { n: target });
}

/** Each seat on the target that has not won because its partner is not above 0. */
function blocked41(view) {
  if (!rule41(view, 'partner_positive') || view.over) return [];
  const target = rule41(view, 'target');
  return [0, 1, 2, 3].filter((p) => view.scores[p] >= target && view.scores[(p + 2) % 4] <= 0);
}

/** Both partnerships have won on these scores, and the game goes on: a tie (the rule `tie`
 *  found them level). */
function tied41(view) {
  if (view.over) return false;
  const target = rule41(view, 'target');
  const positive = rule41(view, 'partner_positive');
  const sc = view.scores;
  return [[0, 2], [1, 3]].every(([a, b]) => [[a, b], [b, a]].some(([p, q]) =>
    sc[p] >= target && (!positive || sc[q] > 0)));
}

/** Cards as the table holds them: by suit (clubs, diamonds, hearts, spades), low to high. */
function sortedCards(cards) {
  const at = (c) => 'CDHS'.indexOf(c[c.length - 1]) * 13 + '23456789TJQKA'.indexOf(c[0]);
  return [...cards].sort((a, b) => at(a) - at(b));
}

/** The table's rules in one line, in the reader's words: the preset's summary and the
 *  house rules the host changed. */
function rulesText(table) {
  if (!table || !table.preset) return '';
  const line = t(`preset.${table.preset}.summary`, null, table.rules_text || '');
  const changed = (table.house_rules || []).map(([name, value]) =>
    `${t(`option.${name}.label`, null, name)}: ${valueText(value)}`);
  return changed.length ? t('table.house_rules', { line, rules: changed.join(', ') }) : line;
}

/** The address to hand to those who want to watch: the table without a seat. */
function watchUrl() {
  return absolute(`/t/${encodeURIComponent(S.tableId)}#watch`);
}

/** A watch link with its copy button (for the host). */
function watchItem(id) {
  const link = watchUrl();
  const field = h('input', { type: 'text', readonly: true, value: link, id: `${id}-url`,
    'aria-label': t('table.watch_link') });
  const button = h('button', { type: 'button', class: 'copy', text: t('common.copy'),
    onclick: async () => { button.textContent = (await copyText(link, field)) ? t('common.copied') : t('common.copy'); } });
  return h('div', { class: 'watch', id }, h('p', { text: t('table.watch_help') }),
    h('div', { class: 'row' }, field, button));
}

function announce(text) {
  const box = $('announce');
  const p = h('p', { text });
  box.appendChild(p);
  while (box.childNodes.length > 4) box.removeChild(box.firstChild);
}

// ---------------------------------------------------------------- legal choices

function parseLegal(view) {
  const out = { play: new Map(), rob: new Map(), discard: new Map(), call: [], buttons: [],
    robSets: new Map() };
  for (const a of view.legal || []) {
    const parts = a.split(' ');
    const verb = parts[1];
    const args = parts.slice(2);
    if (verb === 'play') out.play.set(args[0], a);
    else if (verb === 'discard') out.discard.set(setKey(args), a);
    else if (verb === 'rob' && view.phase === 'rob') out.rob.set(args[0], a);
    else if (verb === 'rob') out.robSets.set(setKey(args), a);
    else if (verb === 'call') out.call.push(a);
    else out.buttons.push(a);
  }
  return out;
}

function setKey(cards) {
  return [...cards].sort().join(' ');
}

function buttonLabel(a, view) {
  const parts = a.split(' ');
  const verb = parts[1];
  const arg = parts[2];
  if (verb === 'pass') return t('act.pass');
  if (verb === 'hold') return t('act.hold');
  if (verb === 'bid') return bidText(arg);
  if (verb === 'raise') return t('act.raise', { bid: bidText(arg) });
  if (verb === 'trump') return suitWords(arg);
  return a;
}

// ---------------------------------------------------------------- sending

function send(action) {
  if (!S.view || S.pending === S.view.version) return; // one action per position
  S.pending = S.view.version;
  S.refusal = '';
  $('refusal').textContent = '';
  if (!S.conn.act(action, S.view.version)) {
    S.pending = null;
    showRefusal(t('error.offline'));
  }
}

function showRefusal(text) {
  S.refusal = text;
  showBeside($('refusal'), text);  // beside the card or button tapped, in view (nearby.js)
}

// ---------------------------------------------------------------- drawing

function positions(n) {
  const base = {
    2: ['top'], 3: ['left', 'right'], 4: ['left', 'top', 'right'],
    5: ['left', 'tl', 'tr', 'right'], 6: ['left', 'tl', 'top', 'tr', 'right'],
  }[n] || [];
  // Forty One goes round to the right (as it is played in Syria); a right-to-left page
  // mirrors the grid, so the areas are mirrored back to keep the seats where they sit.
  const mirror = { left: 'right', right: 'left', tl: 'tr', tr: 'tl', top: 'top' };
  const flip = (S.view && fortyOne(S.view)) !== (document.documentElement.dir === 'rtl');
  return flip ? base.map((p) => mirror[p]) : base;
}

function lastCalls(view) {
  // each seat's latest auction call this hand (from the public history)
  const calls = {};
  for (const a of view.history || []) {
    const [seat, verb, arg] = a.split(' ');
    if (verb === 'bid' || verb === 'raise') calls[seat] = bidText(arg);
    else if (verb === 'pass') calls[seat] = t('act.pass');
    else if (verb === 'hold') calls[seat] = t('act.hold');
  }
  return calls;
}

function tricksWon(view) {
  const won = {};
  for (const tr of view.tricks || []) {
    if (tr.winner !== null && tr.winner !== undefined) won[tr.winner] = (won[tr.winner] || 0) + 1;
  }
  return won;
}

/** The trick on the table: the one being played, or, until its first card, the trick
 *  just finished (so everyone sees its last card and who took it). */
function shownTrick(view) {
  const instead = shownInstead(view); // (feel.js: the last trick on a tap, or none once taken)
  if (instead !== undefined) return instead;
  const tr = view.trick;
  if (tr && tr.cards && tr.cards.length) return { ...tr, done: false };
  const tricks = view.tricks || [];
  if (view.phase === 'play' && tricks.length) return { ...tricks[tricks.length - 1], done: true };
  return null;
}

function trickCardOf(view, seat) {
  const tr = shownTrick(view);
  if (!tr) return null;
  const n = view.players;
  const i = (seat - tr.leader + n) % n;
  if (i >= tr.cards.length) return null;
  return cardFigure(tr.cards[i], `${tr.done ? 'done' : ''} ${tr.done && tr.winner === seat ? 'win' : ''}`);
}

/** 'us' or 'them' for a seat at a table of two partnerships (Forty One's teams too), as
 *  the reader sits; null for a spectator and at other tables. */
function sideOf(view, seat) {
  const sides = fortyOne(view) ? [[0, 2], [1, 3]] : view.sides;
  if (S.you === null || !sides || sides.length !== 2 || sides.some((x) => x.length !== 2)) return null;
  return sides.find((x) => x.includes(S.you))?.includes(seat) ? 'us' : 'them';
}

/** The words on a seat's line read as separate phrases ("club level, tricks: 0", "bid 30,
 *  tricks: 0"), not one run ("bid 30 tricks: 0"): a comma after each phrase that another
 *  follows (the chips between them are marks, not phrases). */
function separate(line) {
  const said = line.filter((s) => !s.classList.contains('chip') && !s.classList.contains('timer'));
  for (const s of said.slice(0, -1)) s.textContent = `${s.textContent}${t('table.phrase_sep')}`;
}

function badge(seat, view) {
  const info = S.table && S.table.seats ? S.table.seats.find((x) => x.seat === seat) : null;
  const turn = view.to_act === seat;
  const b = h('div', { class: `badge${turn ? ' turn' : ''}${info && info.away ? ' away' : ''}`,
    dataset: { seat } });
  if (info && info.kind === 'computer') b.setAttribute('title', t('table.computer'));
  b.appendChild(h('span', { class: 'name', text: seatName(seat) }));
  const line = [];
  if (view.dealer === seat) line.push(h('span', { class: 'chip', title: t('table.dealer'),
    'aria-label': t('table.dealer'), text: t('table.dealer_chip') }));
  if (info && info.kind === 'computer') {
    // "club level" under "Computer 2"; a computer player with a name of its own ("Bot")
    // says it is one: "Computer · club level"
    const level = levelWords(info.level || 'basic');
    line.push(h('span', { class: 'level', text: ownName(info) ? t('table.computer_level', { level })
      : t('table.level_only', { level }) }));
  }
  const side = sideOf(view, seat);
  if (side) {
    b.classList.add(`side-${side}`);
    if (side === 'us' && seat !== S.you) {
      line.push(h('span', { class: 'chip partner', text: t('table.partner_chip') }));
    }
  }
  if (view.scores && view.sides && view.scores.length !== view.sides.length) {
    line.push(h('span', { text: ` ${t('table.score', { score: view.scores[seat] })}` }));
  }
  if (info && info.away) line.push(h('span', { text: ` ${t('table.away_short')}` }));
  if (info && info.kind === 'person' && !info.connected && seat !== S.you) {
    line.push(h('span', { text: ` ${t('table.offline')}` }));
  }
  if (fortyOne(view)) {
    const bid = view.bids ? view.bids[seat] : null;
    if (bid !== null && bid !== undefined) {
      line.push(h('span', { text: ` ${t('table.bid_taken', { bid, taken: view.taken[seat] })}` }));
    }
  } else {
    const calls = S.calls || {};
    if (view.bidder === seat && view.bid) {
      line.push(h('span', { text: ` ${t('table.bidder', { bid: bidText(view.bid) })}` }));
    } else if (view.phase === 'auction' && calls[seat] !== undefined) {
      line.push(h('span', { text: ` ${calls[seat]}` }));
    }
    if (view.phase === 'play' || view.phase === 'hand-over') {
      const won = tricksWon(view)[seat] || 0;
      line.push(h('span', { text: ` ${t('table.tricks', { count: won })}` }));
    }
    if (view.phase === 'draw' || view.phase === 'rob-pack') {
      const d = view.discard_counts ? view.discard_counts[seat] : 0;
      if (d) line.push(h('span', { text: ` ${t('table.discarded', { count: d })}` }));
    }
    if (view.partner === seat && view.bidder !== seat) line.push(h('span', { text: ` ${t('table.partner')}` }));
  }
  if (turn && S.deadline) line.push(h('span', { class: 'timer', dataset: { deadline: S.deadline } }));
  separate(line);
  b.appendChild(h('span', {}, ...line));
  const up = view.face_up_held ? view.face_up_held[seat] : null;
  if (up && up.length && seat !== S.you) {
    b.appendChild(h('span', { class: 'mini row' }, ...up.map((c) => cardFigure(c))));
  }
  return b;
}

function renderFelt() {
  const view = S.view;
  const felt = $('felt');
  const n = view.players;
  const me = S.you === null ? 0 : S.you;
  const pos = positions(n);
  const cells = [];
  const playing = view.phase === 'play' || holding(view);
  for (let r = 1; r < n; r += 1) {
    const seat = (me + r) % n;
    const cell = h('div', { class: 'seat', dataset: { pos: pos[r - 1], seat } }, badge(seat, view));
    const c = trickCardOf(view, seat);
    if (playing) cell.appendChild(h('div', { class: 'played' }, c));
    cells.push(cell);
  }
  const mid = h('div', { class: 'mid' });
  mid.appendChild(badge(me, view));
  // trump, the turned-up card, the bid
  if (view.trump) {
    mid.appendChild(h('div', { class: 'trumpline', role: 'img',
      'aria-label': t('table.trump', { suit: suitWords(view.trump) }) },
    suitIcon(view.trump, 26), h('span', { 'aria-hidden': 'true', text: suitWords(view.trump) })));
  } else if (!fortyOne(view) && view.high_bid) {
    mid.appendChild(h('div', { text: t('table.high_bid', { bid: bidText(view.high_bid),
      name: seatName(view.high_bidder) }) }));
  }
  if (view.up_card && !view.robbed && view.phase !== 'play' && view.phase !== 'hand-over') {
    mid.appendChild(h('div', { class: 'mini' }, h('span', { text: t('table.up_card') }),
      cardFigure(view.up_card)));
  }
  if (!fortyOne(view) && view.kitty_size && ['auction', 'raise', 'trump'].includes(view.phase)
      && !view.kitty) {
    mid.appendChild(h('div', { class: 'muted', text: t('table.kitty', { count: view.kitty_size }) }));
  }
  if (playing) {
    const c = S.you === null ? trickCardOf(view, me) : trickCardOf(view, S.you);
    mid.appendChild(h('div', { class: 'played' }, c));
  }
  felt.dataset.players = String(n);
  felt.replaceChildren(...cells, mid);
  afterFelt(felt, view, S.you, seatName);
}

function statusText() {
  const view = S.view;
  const table = S.table || {};
  if (table.status === 'waiting') {
    const full = (table.seats || []).every((x) => x.kind !== 'empty');
    if (!full) return t('status.waiting');
    return table.host ? t('status.waiting_start') : t('status.waiting_host');
  }
  if (table.status === 'closed') return t('status.closed');
  if (view.phase === 'game-over' || view.over) {
    const w = view.winner;
    if (w === null || w === undefined) return t('status.game_over');
    const seats = Array.isArray(w) ? w : (view.sides[w] || [w]);
    const why = fortyOne(view) ? reason41(view) : '';
    if (why) return t(sideKey('status.winner_why', seats, false), { names: partnersName(seats), why });
    return t(sideKey('status.winner', seats), { names: sideName(seats) });
  }
  if (view.phase === 'hand-over') return t('status.hand_over');
  const who = view.to_act;
  if (who === null || who === undefined) return '';
  const mine = who === S.you;
  const key = {
    auction: 'bid', raise: 'raise', trump: 'trump', draw: 'draw', 'rob-pack': 'pack',
    rob: 'rob', call: 'call', play: 'play',
  }[view.phase] || 'play';
  return mine ? t(`status.you.${key}`) : t(`status.other.${key}`, { name: seatName(who) });
}

function renderStatus() {
  // the live region is written only when its words change (a screen reader reads each
  // change); the countdown beside it is a timer, outside it
  const st = $('status');
  const text = statusText();
  if (st.textContent !== text) st.textContent = text;
  const mine = S.view.to_act === S.you && S.you !== null;
  $('status-line').classList.toggle('mine', mine);
  const timer = $('turn-timer');
  if (S.deadline && S.view.to_act !== null && S.view.to_act !== undefined) {
    timer.dataset.deadline = String(S.deadline);
    timer.hidden = false;
  } else {
    delete timer.dataset.deadline;
    timer.hidden = true;
  }
  tick();
  // the score line
  const v = S.view;
  const line = $('scoreline');
  const parts = [];
  if (v.scores.length === v.sides.length) {
    const mine = S.you === null ? -1 : v.sides.findIndex((side) => side.includes(S.you));
    const two = v.sides.length === 2 && v.sides[0].length > 1;
    v.sides.forEach((side, i) => {
      let who = sideName(side);
      if (two && mine >= 0) who = i === mine ? t('table.us') : t('table.them');
      parts.push([who, v.scores[i]]);
    });
  }
  // each name isolated, so that a Latin name reads right in an Arabic line and the reverse;
  // a name and its score on one line ("Computer 3 0", never "Computer" then "3 0")
  const target = parts.length ? targetWords(S.table) : '';
  line.replaceChildren(...parts.flatMap(([who, score], i) => [
    ...(i ? [' · '] : []), h('span', { class: 'pair' }, h('bdi', { text: who }), ` ${score}`)]),
  ...(target ? [` · ${target}`] : []));
  if (parts.length) {
    line.setAttribute('aria-label', t('table.scores', {
      scores: [...parts.map(([who, score]) => `${who} ${score}`), ...(target ? [target] : [])].join(', ') }));
  }
}

const WARN_SECONDS = 10;

function tick() {
  for (const node of document.querySelectorAll('.timer[data-deadline]')) {
    const left = Math.max(0, Math.round(Number(node.dataset.deadline) - Date.now() / 1000));
    node.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    node.setAttribute('aria-label', tn('table.seconds_left', left, { count: left }));
  }
  // the player's own turn: said once when it is nearly out, not every second
  if (S.view && S.deadline && S.you !== null && S.view.to_act === S.you) {
    const left = Math.round(S.deadline - Date.now() / 1000);
    if (left <= WARN_SECONDS && left > 0 && S.warned !== S.deadline) {
      S.warned = S.deadline;
      announce(tn('table.seconds_left', left, { count: left }));
    }
  }
}

/** Columns for a hand of n cards in `width` px: one row when they fit at a readable size,
 *  else two even rows (a 13-card hand two rows of 7 on a phone), else more. */
function handColumns(n, width, minW, gap) {
  const fit = Math.max(1, Math.floor((width + gap) / (minW + gap)));
  if (n <= fit) return Math.max(n, 1);
  const rows = Math.ceil(n / fit);
  return Math.ceil(n / rows);
}

function renderHand(legal) {
  const view = S.view;
  const hand = $('hand');
  if (S.you === null) {
    hand.replaceChildren();
    hand.hidden = true;
    return;
  }
  hand.hidden = false;
  const cards = view.hand || [];
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card : null;
  const selecting = selectionMode(view, legal);
  const mine = view.to_act === S.you;
  const kitty = new Set(view.kitty || []);
  const hinted = S.hint && S.hint.version === view.version ? S.hint.action : null;
  // a card is dimmed only when a card is being played and it may not be (hand.js: never
  // while the player reads his hand to bid, name trump or discard)
  const choosing = selecting || view.phase === 'play' || view.phase === 'rob';
  const raised = raisedCard(S, view.version);
  const buttons = cards.map((c) => {
    let isLegal;
    if (selecting) isLegal = true;
    else if (view.phase === 'rob') isLegal = legal.rob.has(c);
    else isLegal = legal.play.has(c);
    const cls = ['card', !mine ? 'waiting' : isLegal ? 'legal' : choosing ? 'unplayable' : 'held'];
    if (kitty.has(c)) cls.push('from-kitty');
    if (hinted && hinted.split(' ').slice(2).includes(c)) cls.push('hinted');
    if (raised === c && mine && isLegal && !selecting) cls.push('raised');
    const b = h('button', { type: 'button', class: cls.join(' '), dataset: { card: c },
      'aria-label': handLabel(view, c) });
    if (selecting) b.setAttribute('aria-pressed', S.selected.has(c) ? 'true' : 'false');
    else if (!(isLegal && mine)) b.setAttribute('aria-disabled', 'true');
    b.appendChild(cardFace(c));
    const marks = cardBadges(view, c);
    if (marks) b.appendChild(marks);
    b.addEventListener('click', () => clickCard(c, legal));
    return b;
  });
  hand.replaceChildren(...buttons);
  if (hinted) markHand(hand, S.hint);
  layoutHand();
  if (focused) {
    const again = hand.querySelector(`button[data-card="${focused}"]`);
    if (again) again.focus();
  }
}

function layoutHand() {
  const hand = $('hand');
  const n = hand.children.length;
  const many = n > 8;
  const gap = many ? 4 : 6;
  const width = hand.clientWidth - 16;
  const wide = window.innerWidth >= 1200;
  // on a phone a long hand goes small to fit two rows; on a desktop it stays large; and the
  // whole hand shows on the screen without scrolling (hand.js fitHand)
  const preferred = handColumns(n, width, many ? (wide ? 84 : 44) : 62, gap);
  const maxW = wide ? 130 : window.innerWidth >= 700 ? 100 : 80;
  const room = window.innerHeight - roomAbove(hand) - 22; // (its padding, a raised card)
  const { cols, w } = fitHand(n, width, room, gap, maxW, preferred);
  hand.style.setProperty('--cols', String(cols));
  hand.style.gap = `${gap}px`;
  document.documentElement.style.setProperty('--card-w', `${w}px`);
}

function selectionMode(view, legal) {
  return view.to_act === S.you && (legal.discard.size > 0 && view.phase === 'draw'
    || view.phase === 'rob-pack');
}

function clickCard(card, legal) {
  const view = S.view;
  if (selectionMode(view, legal)) {
    if (S.selected.has(card)) S.selected.delete(card); else S.selected.add(card);
    render();
    return;
  }
  const action = view.phase === 'rob' ? legal.rob.get(card) : legal.play.get(card);
  if (action && view.to_act === S.you && raiseOnly(S, card, view.version)) {
    render(); // raised: a second tap plays it (hand.js, a choice kept on this device)
    announce(t('hand.raised', { card: cardName(card) }));
    return;
  }
  if (view.phase === 'rob') {
    send(legal.rob.get(card) || `${S.you} rob ${card}`);
    return;
  }
  // a card that may not be played still goes to the server, which answers with the
  // engine's reason and its code (and changes nothing): the page says it in its own words
  send(legal.play.get(card) || `${S.you} play ${card}`);
}

function renderActions(legal) {
  const view = S.view;
  const box = $('actions');
  const items = [];
  const mine = view.to_act === S.you && S.you !== null;
  const seatInfo = S.table && S.table.seats && S.you !== null
    ? S.table.seats.find((x) => x.seat === S.you) : null;
  if (seatInfo && seatInfo.away) {
    items.push(h('button', { type: 'button', class: 'primary', id: 'back',
      text: t('table.take_back'), onclick: () => S.conn.send({ type: 'back' }) }));
  }
  if (mine) {
    if (view.phase === 'draw' || view.phase === 'rob-pack') {
      items.push(...selectionActions(view, legal));
    }
    for (const a of legal.buttons) {
      const b = h('button', { type: 'button', class: 'act', dataset: { action: a } });
      const verb = a.split(' ')[1];
      if (verb === 'trump') b.appendChild(suitIcon(a.split(' ')[2]));
      b.appendChild(document.createTextNode(buttonLabel(a, view)));
      explainBid(b, a, view, S.table);
      if (S.hint && S.hint.version === view.version && S.hint.action === a) b.classList.add('primary');
      b.addEventListener('click', () => send(a));
      items.push(b);
    }
    if (view.phase === 'trump') {
      for (const [, a] of legal.discard) {
        items.push(h('button', { type: 'button', class: 'act', dataset: { action: a },
          text: view.went_on_kitty ? t('act.go_on_top_card') : t('act.go_on_kitty'),
          onclick: () => send(a) }));
      }
    }
    if (view.phase === 'call' && legal.call.length) items.push(...callActions(legal));
  }
  if (mayUndo(view, S.table, S.you)) items.push(undoButton(S.you, send));
  if (mine) {
    if (view.phase === 'rob') items.unshift(h('p', { class: 'prompt', text: t('prompt.rob', { card: cardName(view.up_card) }) }));
    if (view.phase === 'auction' && fortyOne(view)) items.unshift(h('p', { class: 'prompt', text: t('prompt.bid41') }));
    const asked = ['auction', 'raise'].includes(view.phase) ? bidPrompt(view, legal.buttons) : '';
    if (asked) items.unshift(h('p', { class: 'prompt', id: 'bid-prompt', text: asked }));
  }
  box.replaceChildren(...items);
  const row = document.querySelector('.statusrow');
  row.querySelector('#hint')?.remove();
  // (none on the waiting screen: the game has not started)
  if (S.table && S.table.settings && S.table.settings.hints && mine && S.table.status !== 'waiting') {
    // beside the choices where there are buttons to choose from (the bids': on the line of
    // their question), else by the status line
    const button = h('button', { type: 'button', id: 'hint', text: t('table.hint'),
      onclick: () => S.conn.send({ type: 'hint' }) });
    const asked = box.querySelector('#bid-prompt');
    if (asked) asked.after(button, h('span', { class: 'break' }));
    else (box.querySelector('button.act') ? box : row).appendChild(button);
  }
}

function selectionActions(view, legal) {
  const out = [];
  const key = setKey(S.selected);
  if (view.phase === 'draw') {
    const n = S.selected.size;
    const a = legal.discard.get(key) || `${S.you} discard ${[...S.selected].join(' ')}`.trim();
    const ok = legal.discard.has(key);
    const b = h('button', { type: 'button', class: ok ? 'primary act' : 'act', id: 'discard',
      dataset: { action: a },
      text: n === 0 ? (legal.discard.has('') ? t('act.keep_all') : t('act.choose_discard'))
        : tn('act.discard', n, { count: n }) });
    if (!ok) b.setAttribute('aria-disabled', 'true');
    b.addEventListener('click', () => { send(a); });
    out.push(b);
  } else {
    // the dealer robs the pack: choose cards of the hand to give and of the pack to take
    out.push(h('p', { class: 'prompt', text: t('prompt.pack') }));
    const pack = h('div', { class: 'row', role: 'group', 'aria-label': t('table.pack') });
    for (const c of view.pack || []) {
      const b = h('button', { type: 'button', class: 'card', dataset: { card: c },
        'aria-label': cardLabel(c), 'aria-pressed': S.selected.has(c) ? 'true' : 'false' });
      b.style.width = '3.2rem';
      b.appendChild(cardFace(c));
      b.addEventListener('click', () => {
        if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
        render();
      });
      pack.appendChild(b);
    }
    out.push(pack);
    const a = legal.robSets.get(key) || `${S.you} rob ${[...S.selected].join(' ')}`;
    const ok = legal.robSets.has(key);
    const b = h('button', { type: 'button', class: ok ? 'primary act' : 'act', text: t('act.rob_pack'),
      dataset: { action: a } });
    if (!ok) b.setAttribute('aria-disabled', 'true');
    b.addEventListener('click', () => send(a));
    out.push(b);
  }
  return out;
}

function callActions(legal) {
  const out = [h('p', { class: 'prompt', text: t('prompt.call') })];
  const select = h('select', { id: 'call-card', 'aria-label': t('prompt.call') });
  let alone = null;
  for (const a of legal.call) {
    const arg = a.split(' ')[2];
    if (arg === 'none') { alone = a; continue; }
    select.appendChild(h('option', { value: a, text: cardName(arg) }));
  }
  out.push(select);
  out.push(h('button', { type: 'button', class: 'primary act', text: t('act.call'),
    onclick: () => send(select.value) }));
  if (alone) out.push(h('button', { type: 'button', class: 'act', dataset: { action: alone },
    text: t('act.alone'), onclick: () => send(alone) }));
  return out;
}

function renderReview() {
  const view = S.view;
  const box = $('review');
  const over = view.phase === 'hand-over' || view.phase === 'game-over' || view.over;
  if (!over) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const buttons = h('div', { class: 'row' });
  const parts = [h('h2', { tabindex: '-1', text: view.over ? t('review.game_over') : t('review.heading',
    { hand: view.hand_index + 1 }) })];
  if (view.points && view.sides && view.points.length === view.sides.length) {
    parts.push(h('p', { text: view.sides.map((s, i) => t('review.points',
      { names: sideName(s), points: view.points[i] })).join(' · ') }));
  }
  const known = view.hand_index in S.par || String(view.hand_index) in S.par;
  const played = view.tricks && view.tricks.length; // a thrown-in hand has no par to wait for
  parts.push(h('p', { id: 'par', text: known ? parText(S.par[view.hand_index])
    : played ? t('review.par_wait') : t('review.par_none') }));
  const line = (S.pad || []).find((r) => r.hand === view.hand_index);
  if (line && line.note) {
    const note = noteWords(line, view, S.table);
    parts.splice(1, 0, h('p', { class: 'scoreline', text: line.bidder === null || line.bidder === undefined
      ? note : line.bidder === S.you ? t('review.bid_result_you', { bid: bidText(line.bid), note })
        : t('review.bid_result', { name: seatName(line.bidder), bid: bidText(line.bid), note }) }));
  }
  if (fortyOne(view) && played && Array.isArray(view.bids)) parts.splice(1, 0, ...result41(view));
  if (view.deal && view.deal.hands) {
    const grid = h('div', { class: 'review-hands' });
    view.deal.hands.forEach((cards, seat) => {
      grid.appendChild(h('div', { dataset: { seat } }, h('div', { class: 'who', text: seatName(seat) }),
        h('div', { class: 'cards mini' }, ...sortedCards(cards).map((c) => cardFigure(c)))));
    });
    if (view.deal.kitty && view.deal.kitty.length) {
      grid.appendChild(h('div', {}, h('div', { class: 'who', text: t('review.kitty') }),
        h('div', { class: 'cards mini' }, ...view.deal.kitty.map((c) => cardFigure(c)))));
    }
    parts.push(h('h3', { text: t('review.hands') }), grid);
  }
  if (view.tricks && view.tricks.length) {
    const list = h('ol', {});
    for (const tr of view.tricks) {
      list.appendChild(h('li', {}, h('span', { class: 'mini row' }, ...tr.cards.map((c, i) => {
        const seat = (tr.leader + i) % view.players;
        return cardFigure(c, seat === tr.winner ? 'win' : '');
      })), h('span', { text: ` ${t('review.trick_winner', { name: seatName(tr.winner) })}` })));
    }
    parts.push(h('h3', { text: t('review.tricks') }), list);
  }
  const row = buttons;
  if (S.you !== null && !view.over && S.table && !['over', 'closed'].includes(S.table.status)) {
    const done = S.ready.has(S.you);
    row.appendChild(h('button', { type: 'button', class: 'primary', id: 'ready', disabled: done,
      text: done ? t('review.waiting_others') : t('review.ready'),
      onclick: () => { S.conn.ready(S.view.hand_index); S.ready.add(S.you); render(); } }));
  }
  // a rated table's rematch is rated when it can be: said before it is asked for
  const ratedNote = view.over && S.you !== null && S.table && S.table.settings && S.table.settings.rated
    ? h('p', { id: 'rematch-rated', text: t('review.rematch_rated') }) : null;
  if (view.over && S.you !== null) {
    row.appendChild(h('button', { type: 'button', class: 'primary', id: 'rematch',
      text: t('review.rematch'), onclick: () => S.conn.send({ type: 'rematch' }),
      'aria-describedby': ratedNote ? 'rematch-rated' : null }));
  }
  if (view.over) row.appendChild(h('a', { class: 'button', id: 'new-game', href: '/', text: t('summary.new_game') }));
  if (view.over && signedIn === false) {
    row.appendChild(h('a', { class: 'button', id: 'account-keep', href: accountHref(), text: t('table.account.keep') }));
  }
  row.appendChild(h('a', { class: 'button', href: recordUrl(), download: `forties-${S.tableId}.json`,
    text: t('table.record') }));
  row.appendChild(replayHere(view.hand_index));
  row.appendChild(h('a', { class: 'button', href: `/replay?table=${encodeURIComponent(S.tableId)}`,
    target: '_blank', text: t('review.replay') }));
  parts.splice(2, 0, row);
  if (ratedNote) parts.splice(3, 0, ratedNote);
  if (view.over) {
    const summary = summarySection(S.summary, (seats) => (seats.length === 1 ? seatName(seats[0]) : sideName(seats)));
    if (summary) parts.splice(3, 0, summary);
  }
  box.replaceChildren(...parts);
}

/** The button that plays hand `hand` again on this page (replayer.js), with the names the
 *  table shows and the hand's par once the server has it. */
function replayHere(hand) {
  const parWords = (n) => {
    const par = S.par[n] || S.par[String(n)];
    return par ? t('replayer.par', { par: parText(par) }) : '';
  };
  return h('button', { type: 'button', id: 'replay-here', text: t('review.replay_here'),
    onclick: (ev) => openReplay({ tableId: S.tableId, recordUrl: recordUrl(), hand, name: seatName,
      you: S.you, parWords, sideName, after: $('review'), opener: ev.currentTarget }) });
}

/** Forty One's hand in the review: each seat's bid, tricks and points (doubled from 7), and
 *  each seat on the target whose partner is not above 0. */
function result41(view) {
  const double = rule41(view, 'double_from');
  const seats = [0, 1, 2, 3].map((s) => {
    const bid = view.bids[s];
    const took = view.taken[s];
    const points = (bid >= double ? 2 * bid : bid) * (took >= bid ? 1 : -1);
    const nodes = tNodes(s === S.you ? 'review.result41_you' : 'review.result41',
      { name: seatName(s), bid, took, points }, ['points']);
    if (bid >= double) nodes.push(t('review.doubled41'));
    return h('span', { dataset: { seat: s } }, ...nodes);
  });
  const out = [h('p', { class: 'scoreline', id: 'result41' }, ...seats.flatMap((x, i) => (i ? [' · ', x] : [x])))];
  for (const p of blocked41(view)) {
    out.push(h('p', { class: 'scoreline', dataset: { blocked: p } }, ...tNodes(
      p === S.you ? 'review.partner41_you' : 'review.partner41',
      { name: seatName(p), score: view.scores[p] }, [])));
  }
  if (tied41(view)) {
    const id = rule41(view, 'tie') === 'lower-partner' ? 'review.tie41_lower' : 'review.tie41_total';
    out.push(h('p', { class: 'scoreline', dataset: { tie: '' }, text: t(id, { n: rule41(view, 'target') }) }));
  }
  return out;
}

/** The double-dummy par (the server's {side, points}) in the page's words. */
function parText(par) {
  if (!par || typeof par !== 'object' || !Array.isArray(par.side)) return t('review.par_none');
  if (Array.isArray(par.teams) && par.teams.length) { // Forty One: each partnership and its bids
    const teams = par.teams.map((tm) => tn(sideKey(par.exact ? 'review.par_team'
      : 'review.par_team_about', tm.seats, false), tm.tricks, {
      names: partnersName(tm.seats), tricks: tm.tricks, bids: tm.bids.join(' + ') })).join(t('review.par_and'));
    return t(par.exact ? 'review.par_41' : 'review.par_41_estimate', { teams });
  }
  const key = S.view && fortyOne(S.view) ? 'review.par_tricks' : 'review.par_points';
  return tn(sideKey(key, par.side), par.points, { names: sideName(par.side), points: par.points });
}

function recordUrl() {
  const url = `/api/tables/${encodeURIComponent(S.tableId)}/record`;
  // a duplicate board's record is given to its own seats only, by their key
  return S.table && S.table.board && S.token ? `${url}?token=${encodeURIComponent(S.token)}` : url;
}

function renderPad() {
  const body = $('pad-body');
  const view = S.view;
  if (!S.pad || !S.pad.length) {
    body.replaceChildren(h('p', { text: t('pad.empty') }));
    return;
  }
  if (view && fortyOne(view)) {
    body.replaceChildren(pad41(view));
    return;
  }
  body.replaceChildren(pad45(view));
}

/** The Forty-Fives' pad, made for a 360 px phone whatever the number of sides: each hand a
 *  group of rows with its number beside them, a first line saying who bid what in which
 *  trump, whether it was made and what the bidding side took, then a row a side (what the
 *  hand did to its score, "+15" or "-20", and its score after it), so no column grows with
 *  the players or their names. */
function pad45(view) {
  const sides = view ? view.sides : [];
  const who = sides.every((s) => s.length === 1) ? 'pad.player41' : 'pad.side';
  const head = h('tr', {}, ...['pad.hand', who, 'pad.points', 'pad.total41'].map(
    (id) => h('th', { scope: 'col', text: t(id) })));
  const hands = S.pad.map((r) => h('tbody', { dataset: { hand: r.hand ?? 0 } },
    h('tr', { class: 'bidline' },
      h('th', { scope: 'rowgroup', rowspan: sides.length + 1, text: String((r.hand ?? 0) + 1) }),
      h('td', { colspan: 3 }, ...bidLine(r))),
    ...sides.map((s, i) => h('tr', { dataset: { side: i } },
      h('th', { scope: 'row', class: 'who', text: sideName(s) }),
      h('td', { class: 'points' }, num(Array.isArray(r.change) ? r.change[i] : '', true)),
      h('td', { class: 'total' }, num(Array.isArray(r.scores) ? r.scores[i] : ''))))));
  return h('table', { class: 'pad pad45' }, h('thead', {}, head), ...hands);
}

/** A 45s hand's first line on the pad: "Ann bid 25 ♥ Hearts: made, took 25", or why nobody
 *  bid (what the bidding side took: the card points that made or set the bid). */
function bidLine(r) {
  const note = r.note ? (has(`pad.note.${r.note}`) ? t(`pad.note.${r.note}`) : r.note) : '';
  const trump = r.trump ? [' ', suitIcon(r.trump, 18), ` ${suitWords(r.trump)}`] : [];
  if (r.bidder === null || r.bidder === undefined) return [note || '—', ...trump];
  const took = typeof r.took === 'number';
  const id = r.bidder === S.you ? (took ? 'pad.bid_result_you_took' : 'review.bid_result_you')
    : took ? 'pad.bid_result_took' : 'review.bid_result';
  const params = { name: seatName(r.bidder), note, bid: [r.bid ? bidText(r.bid) : '', ...trump],
    took: took ? num(r.took) : '' };
  return t(id).split(/\{(\w+)\}/).flatMap((part, i) => {
    if (i % 2 === 0) return [part];
    return part in params ? [].concat(params[part]) : [`{${part}}`];
  });
}

/** Forty One's pad: each hand a row a player (his bid and tricks, then his total), the
 *  hand's number beside them; a thrown-in hand one line across (nothing was played, nobody's
 *  total moved). Narrow enough for a phone with the players' names in full. */
function pad41(view) {
  const head = h('tr', {}, ...['pad.hand', 'pad.player41', 'pad.hand41', 'pad.total41'].map(
    (id) => h('th', { scope: 'col', text: t(id) })));
  const rows = S.pad.flatMap((r) => {
    const number = String((r.hand ?? 0) + 1);
    const bids = Array.isArray(r.bids) ? r.bids : [];
    if (r.note === 'thrown in') {
      const total = bids.reduce((a, b) => a + (b || 0), 0);
      return [h('tr', { class: 'thrown' }, h('th', { scope: 'row', text: number }), h('td', { colspan: 3,
        text: t('pad.ui.thrown41', { n: total, min: rule41(view, 'min_total') }) }))];
    }
    return [0, 1, 2, 3].map((s) => h('tr', { class: s === 0 ? 'first' : '' },
      s === 0 ? h('th', { scope: 'rowgroup', rowspan: 4, text: number }) : null,
      h('td', { class: 'who', text: seatName(s) }),
      h('td', { text: t('pad.bid_took', { bid: bids[s] ?? '—', took: Array.isArray(r.tricks) ? r.tricks[s] : '' }) }),
      h('td', { class: 'total' }, num(Array.isArray(r.scores) ? r.scores[s] : ''))));
  });
  return h('table', { class: 'pad pad41' }, h('thead', {}, head), h('tbody', {}, ...rows));
}

function renderChat() {
  const log = $('chatlog');
  log.replaceChildren(...S.chat.slice(-100).map(chatLine));
  log.scrollTop = log.scrollHeight;
}

function chatLine(m) {
  const text = m.phrase ? t(`phrase.${m.phrase}`) : m.text;
  return h('li', {}, h('b', { text: `${chatWho(m)}: ` }), h('span', { text: text || '' }));
}

/** Who sent a chat message: the reader's own are "You" in the page's language. */
function chatWho(m) {
  if (S.you !== null && m.seat === S.you) return t('table.you');
  const name = m.name === PLAY_NOW_NAME ? null : m.name;
  return name || (m.seat === null || m.seat === undefined ? t('chat.spectator') : seatName(m.seat));
}

function renderLastTrick() {
  const box = $('last-trick');
  const view = S.view;
  const tricks = (view && view.tricks) || [];
  if (!S.showLast) { box.replaceChildren(); return; }
  if (!tricks.length) { box.replaceChildren(h('p', { text: t('table.no_trick_yet') })); return; }
  const tr = tricks[tricks.length - 1];
  box.replaceChildren(h('p', { text: t('review.trick_winner', { name: seatName(tr.winner) }) }),
    h('div', { class: 'mini row' }, ...tr.cards.map((c, i) => {
      const seat = (tr.leader + i) % view.players;
      return h('span', {}, h('span', { text: seatName(seat) }), cardFigure(c, seat === tr.winner ? 'win' : ''));
    })));
}

async function renderWaiting() {
  const box = $('waiting');
  const table = S.table;
  if (!table || table.status !== 'waiting') {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const items = [h('h2', { text: t('waiting.heading') })];
  const list = h('ul', { class: 'waiting' });
  const invites = savedInvites(S.tableId) || [];
  for (const s of table.seats) {
    const li = h('li', { dataset: { seat: s.seat } }, h('b', { text: `${t('table.seat_n', { seat: s.seat + 1 })}: ` }),
      h('span', { text: s.kind === 'empty' ? t('waiting.empty')
        : s.kind === 'computer' ? t('waiting.computer', { level: t(`level.${s.level || 'basic'}`) })
          : s.name || '' }));
    if (table.host && s.seat !== S.you) {
      if (s.kind === 'empty') {
        const sel = h('select', { 'aria-label': t('home.level') },
          ...LEVELS.map((l) => h('option', { value: l, text: t(`level.${l}`) })));
        sel.value = 'basic';
        li.append(sel, h('button', { type: 'button', text: t('waiting.add_computer'),
          onclick: () => hostSeat(s.seat, sel.value) }));
        const inv = invites.find((x) => x.seat === s.seat);
        if (inv) {
          const link = absolute(inv.url);
          li.append(h('button', { type: 'button', class: 'copy', text: t('common.copy_invite'),
            onclick: async (ev) => { ev.target.textContent = (await copyText(link)) ? t('common.copied') : link; } }));
        }
      } else if (s.kind === 'computer') {
        li.append(h('button', { type: 'button', text: t('waiting.remove_computer'),
          onclick: () => hostSeat(s.seat, null) }));
      }
    }
    list.appendChild(li);
  }
  items.push(list);
  items.push(ratedItem(table));
  // a signed-in host invites an online regular to an empty seat (regulars.js)
  const regular = table.host && inviteBlock(table, S.tableId, S.token, S.you, renderWaiting);
  if (regular) items.push(regular);
  if (table.host) items.push(watchItem('watch-waiting'));
  if (table.host) {
    items.push(h('button', { type: 'button', class: 'primary', id: 'start', text: t('waiting.start'),
      onclick: hostStart }));
  } else {
    items.push(h('p', { text: t('waiting.for_host') }));
  }
  items.push(h('p', { class: 'error', id: 'waiting-error', role: 'alert' }));
  box.replaceChildren(...items);
}

/** In More, during the game: the host's watch link (the waiting panel has it before). */
function renderWatch() {
  const box = $('watch-more');
  const want = Boolean(S.table && S.table.host && S.table.status !== 'waiting');
  if (!want) { box.replaceChildren(); return; }
  const field = box.querySelector('input');
  if (field && field.value === watchUrl() && box.dataset.lang === document.documentElement.lang) return;
  box.dataset.lang = document.documentElement.lang;
  box.replaceChildren(watchItem('watch-link'));
}

async function hostSeat(seat, level) {
  try {
    await api(`/api/tables/${encodeURIComponent(S.tableId)}/seat`, { token: S.token, seat, level });
  } catch (e) { $('waiting-error').textContent = errorText(e); }
}

/** Whether the game counts for the ratings, told before it starts: the host's choice (a
 * checkbox), everyone else's line. */
function ratedItem(table) {
  const rated = Boolean(table.settings && table.settings.rated);
  const note = h('p', { id: 'rated-note', text: t(rated ? 'waiting.rated_yes' : 'waiting.rated_no') });
  if (!table.host) return note;
  const box = h('input', { type: 'checkbox', id: 'rated', checked: rated, 'aria-describedby': 'rated-note',
    onchange: (ev) => hostRated(ev.target.checked) });
  return h('div', { class: 'rated' }, h('label', {}, box, ` ${t('waiting.rated')}`), note);
}

async function hostRated(rated) {
  try {
    await api(`/api/tables/${encodeURIComponent(S.tableId)}/rated`, { token: S.token, rated });
  } catch (e) { $('waiting-error').textContent = errorText(e); }
}

async function hostStart() {
  try {
    await api(`/api/tables/${encodeURIComponent(S.tableId)}/start`, { token: S.token });
  } catch (e) { $('waiting-error').textContent = errorText(e); }
}

function render() {
  if (!S.view) return;
  const active = document.activeElement;
  const wasInPlay = active && (active.closest('#hand') || active.closest('#actions'));
  // the review is drawn again (the par comes later): focus in it stays where it was
  const inReview = active && active !== document.body && active.closest('#review');
  const reviewFocus = inReview && (active.id ? `#${active.id}` : active.tagName.toLowerCase());
  const view = S.view;
  beforeDraw(view, S.you);
  const legal = parseLegal(view);
  const key = `${view.version}:${view.phase}`;
  if (S.selKey !== key && !(S.selKey.split(':')[1] === view.phase && view.to_act === S.you)) {
    S.selected = new Set();
  }
  S.selKey = key;
  S.calls = lastCalls(view);
  const preset = S.table ? S.table.preset : '';
  $('title').textContent = t(`preset.${preset}.title`, null, preset);
  document.title = `${$('title').textContent}: ${t('table.title')}`;
  $('rules-text').textContent = rulesText(S.table);
  renderWatch();
  $('b-record').href = recordUrl();
  $('b-away').hidden = S.you === null;
  renderStatus();
  renderWaiting();
  renderFelt();
  $('felt').hidden = ['hand-over', 'game-over'].includes(view.phase) && !holding(view);
  renderActions(legal);
  // (the hint and the rule's note before the hand: the hand is sized to the room left)
  renderHint(S.hint && S.hint.version === view.version ? S.hint : null, seatName, S.you);
  renderTeach(view, S.table, S.you);
  renderHand(legal);
  renderReview();
  renderPad();
  renderLastTrick();
  document.body.dataset.phase = view.phase;
  document.body.dataset.trump = view.trump || '';
  document.body.dataset.trick = view.trick && view.trick.cards ? view.trick.cards.join(' ') : '';
  document.body.dataset.hand = String(view.hand_index);
  document.body.dataset.you = S.you === null ? '' : String(S.you);
  document.body.dataset.version = String(view.version);
  document.body.dataset.toAct = view.to_act === null || view.to_act === undefined ? '' : String(view.to_act);
  document.body.dataset.mine = String(view.to_act === S.you && S.you !== null);
  // a keyboard player whose button went away with the old position lands on the new one
  if (wasInPlay && (!document.activeElement || document.activeElement === document.body)) {
    const next = document.querySelector('#actions button:not(.undo), #hand button.legal, #hand button, #review button');
    if (next) next.focus();
  }
  if (reviewFocus && !$('review').contains(document.activeElement)) {
    $('review').querySelector(reviewFocus)?.focus();
  }
  if (handOver(view)) S.reviewSay = reviewSummary();
  noteTable(S.tableId, S.table, view, S.you);  // the device's list of its games (recent.js)
}

/** The hand's result in words, as the review shows it: the bid made or set, each side's
 *  points, the scores. */
function reviewSummary() {
  const view = S.view;
  const out = []; // ("The hand is over" is the status line's, read from there)
  const line = (S.pad || []).find((r) => r.hand === view.hand_index);
  if (line && line.note) {
    const note = noteWords(line, view, S.table);
    if (line.bidder === null || line.bidder === undefined) out.push(note);
    else if (line.bidder === S.you) out.push(t('review.bid_result_you', { bid: bidText(line.bid), note }));
    else out.push(t('review.bid_result', { name: seatName(line.bidder), bid: bidText(line.bid), note }));
  }
  if (view.points && view.sides && view.points.length === view.sides.length) {
    out.push(view.sides.map((side, i) => t('review.points',
      { names: sideName(side), points: view.points[i] })).join(' · '));
  }
  const scores = $('scoreline').getAttribute('aria-label');
  if (scores) out.push(scores);
  return out.filter(Boolean).join('. ');
}

// ---------------------------------------------------------------- frames

/** The turn timer of a frame: the server says how many seconds are left, and the page
 *  counts down from this device's own clock (which may be wrong: the server's absolute
 *  deadline is not compared with it). */
function setClock(m) {
  if (m.left === undefined) return;
  S.deadline = m.left === null || m.deadline === null ? null : Date.now() / 1000 + Number(m.left);
}

function onSnapshot(m) {
  setClock(m);
  S.you = m.you === undefined ? null : m.you;
  S.table = m.table || S.table;
  S.view = m.view;
  S.pad = m.pad || [];
  S.chat = m.chat || [];
  S.par = m.par || {};
  S.summary = m.summary || null;
  // an action sent on the lost connection, at this very position, is sent again once the
  // connection is up to date (net.js: resend): no second one meanwhile
  const sent = S.conn.pendingAct;
  S.pending = sent && S.view && sent.version === S.view.version ? sent.version : null;
  S.ready = new Set(S.conn.pendingReady !== null && S.you !== null ? [S.you] : []);
  renderChat();
  render();
  tellPace(S.conn);
  document.body.dataset.ready = '1';
}

function onEvent(m) {
  const before = S.view;
  if (m.table) S.table = m.table;
  setClock(m);
  if (m.pad) S.pad = m.pad;
  if (m.view) S.view = m.view;
  if (m.summary) S.summary = m.summary;
  S.pending = null;
  const ev = m.event || {};
  if (S.hint && m.view && m.view.version !== S.hint.version) {
    S.hint = null;
    $('hint-text').textContent = '';
  }
  if (S.refusal && before && m.view && m.view.version !== before.version) {
    S.refusal = '';
    $('refusal').textContent = '';
  }
  switch (ev.kind) {
    case 'act': {
      S.calls = lastCalls(S.view);
      announce(words(ev.text, seatName, S.you));
      const now = (S.view.tricks || []).length;
      if (before && now > (before.tricks || []).length) {
        const tr = S.view.tricks[now - 1];
        announce(tr.winner === S.you ? t('say.you.trick') : t('say.trick', { name: seatName(tr.winner) }));
      }
      break;
    }
    case 'deal':
      S.ready = new Set();
      S.hint = null;
      announce(S.view.dealer === S.you ? t('say.you.deal', { hand: (ev.hand ?? S.view.hand_index) + 1 })
        : t('say.deal', { hand: (ev.hand ?? S.view.hand_index) + 1, name: seatName(S.view.dealer) }));
      break;
    case 'par':
      S.par[ev.hand] = ev.value;
      break;
    case 'ready':
      S.ready.add(ev.seat);
      break;
    case 'away': announce(sayWho(ev.seat, 'say.you.away', 'say.away')); break;
    case 'back': announce(sayWho(ev.seat, 'say.you.back', 'say.back')); break;
    case 'sit': announce(sayWho(ev.seat, 'say.you.sit', 'say.sit')); break;
    case 'start': announce(t('say.start')); break;
    case 'undo': announce(sayWho(ev.seat, 'say.you.undo', 'say.undo')); break;
    default: break; // the end of the game: the status line says who won
  }
  // (whose turn it is: the status line says it, once)
  const active = document.activeElement;
  const lost = !active || active === document.body || active.closest('#hand, #actions');
  render();
  heard(before, S.view, ev, S.you);
  if (before && !handOver(before) && handOver(S.view)) {
    // the hand is over: its result is read out, and a keyboard player whose card went
    // away lands on the review
    if (S.reviewSay) announce(S.reviewSay);
    const heading = $('review').querySelector('h2');
    if (lost && heading) heading.focus();
  }
}

function handOver(view) {
  return view.phase === 'hand-over' || view.phase === 'game-over' || Boolean(view.over);
}

/** "{name} is away" and the like, or its own words for the reader's own seat. */
function sayWho(seat, you, other) {
  return seat === S.you ? t(you) : t(other, { name: seatName(seat) });
}

function onChat(m) {
  // a line of someone this reader's account blocks comes as its number only: not shown
  if (m.text === undefined && m.phrase === undefined) return;
  S.chat.push(m);
  if (S.chat.length > 200) S.chat.shift();
  $('chatlog').appendChild(chatLine(m));
  $('chatlog').scrollTop = $('chatlog').scrollHeight;
  if ($('chat').hidden) $('b-chat').classList.add('primary');
  // read once, from here (the chat log itself is not a live region)
  announce(`${chatWho(m)}: ${m.phrase ? t(`phrase.${m.phrase}`) : m.text}`);
}

function onHint(m) {
  if (typeof m.action !== 'string') return;
  S.hint = { action: m.action, values: m.values, reason: m.reason, prefers: m.prefers,
    version: S.view ? S.view.version : null, hand: S.view ? S.view.hand : [] };
  announce(hintSaid(S.hint, seatName, S.you));
  render();
}

/** A refusal in the page's words: the engine's code and its params (this seat's own cards,
 *  the suit led, the seat to act, the bids, a count of cards) in the reader's language;
 *  without a code, or one this page does not know, the server's English line as it comes. */
function refusalText(m) {
  let id = `refusal.${m.refusal}`;
  if (typeof m.refusal !== 'string' || !has(id)) return m.message || m.code;
  const p = m.params || {};
  if (m.refusal === 'pack-even') {  // robbing the pack: one side of the exchange empty
    if (Array.isArray(p.give) && !p.give.length) id = 'refusal.pack-even.give-none';
    else if (Array.isArray(p.take) && !p.take.length) id = 'refusal.pack-even.take-none';
  }
  const sep = t('refusal.sep');
  const cards = (x) => (Array.isArray(x) ? x.map(cardName).join(sep) : '');
  const whole = (x) => (Number.isInteger(x) ? String(x) : '');
  return t(id, {
    cards: cards(p.cards),
    give: cards(p.give),
    take: cards(p.take),
    card: typeof p.card === 'string' ? cardName(p.card) : '',
    suit: typeof p.suit === 'string' ? suitWords(p.suit) : '',
    name: typeof p.seat === 'number' ? `\u2068${seatName(p.seat)}\u2069` : '',
    names: Array.isArray(p.seats) ? p.seats.map((x) => `\u2068${seatName(x)}\u2069`).join(sep) : '',
    bid: typeof p.bid === 'string' ? bidText(p.bid) : '',
    bids: Array.isArray(p.bids) ? p.bids.map(bidText).join(sep) : '',
    held: whole(p.held),
    count: whole(p.count),
    keep: whole(p.keep),
  });
}

// the server's own refusals of a frame that the page says in its words (error.frame.*)
const FRAME_CODES = ['rate', 'busy', 'connections', 'closed'];

function onError(m) {
  S.pending = null;
  if (m.code === 'stale') return; // the position moved on: the new one is on its way
  if (m.code === 'token' || m.code === 'table') { // no such seat or table: stop knocking
    S.conn.close();
    $('conn').textContent = m.code === 'table' ? t('error.code.table') : t('conn.refused');
    return;
  }
  // the server's own refusals (too fast, a hint on its way, too many windows, a closed
  // table) in the page's words; the engine's reasons by their codes
  showRefusal(!m.refusal && FRAME_CODES.includes(m.code) ? t(`error.frame.${m.code}`)
    : refusalText(m));
}

function onStatus(state, detail) {
  const c = $('conn');
  if (state === 'open') c.textContent = '';
  else if (state === 'refused') c.textContent = detail || t('conn.refused');
  else if (state === 'connecting' && !S.view) c.textContent = t('conn.connecting');
  else if (state !== 'connecting') c.textContent = t('conn.offline');
  document.body.dataset.conn = state;
}

/** A seat's person left the table or is back (not a numbered event: said at once). */
function onPresence(m) {
  if (typeof m.seat !== 'number' || !S.table || !S.table.seats) return;
  S.table = { ...S.table, seats: S.table.seats.map((x) => (x.seat === m.seat
    ? { ...x, connected: Boolean(m.connected) } : x)) };
  const name = seatName(m.seat);
  let text;
  if (m.connected) {
    text = S.left.has(m.seat) ? t('say.returned', { name }) : '';
    S.left.delete(m.seat);
  } else {
    S.left.add(m.seat);
    text = t('say.left', { name });
  }
  if (text) {
    $('notice').textContent = text;
    announce(text);
  }
  if (S.view) render();
}

function onRematch(m) {
  if (!m.url) return;
  const u = new URL(m.url, location.href);
  const id = u.pathname.split('/').filter(Boolean)[1];
  const tok = new URLSearchParams(u.hash.slice(1)).get('token');
  if (id && tok) saveSeat(id, tok);
  location.href = m.url;
}

// ---------------------------------------------------------------- panels and start

function toggle(button, panel) {
  const open = $(panel).hidden;
  $(panel).hidden = !open;
  $(button).setAttribute('aria-expanded', String(open));
  $(button).classList.remove('primary');
  if (open) $(panel).querySelector('button, input, a, select')?.focus();
}

function setupPanels() {
  if (window.innerWidth >= 1200) { // room beside the table: the score pad and the chat open
    for (const [b, p] of [['b-pad', 'pad'], ['b-chat', 'chat']]) {
      $(p).hidden = false;
      $(b).setAttribute('aria-expanded', 'true');
    }
  }
  $('b-pad').addEventListener('click', () => toggle('b-pad', 'pad'));
  $('b-chat').addEventListener('click', () => toggle('b-chat', 'chat'));
  $('b-more').addEventListener('click', () => toggle('b-more', 'more'));
  $('b-last').addEventListener('click', () => { S.showLast = !S.showLast; renderLastTrick(); });
  $('more').insertBefore(raiseSetting(() => render()), $('rules-text'));
  $('b-away').addEventListener('click', () => S.conn && S.conn.send({ type: 'away' }));
  setupFeel($('feel'), render);
  $('phrases').replaceChildren(...PHRASES.map((p) => h('button', { type: 'button', dataset: { phrase: p },
    text: t(`phrase.${p}`), onclick: () => S.conn && S.conn.send({ type: 'chat', phrase: p }) })));
  $('chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('chat-text').value.trim();
    if (text && S.conn) S.conn.send({ type: 'chat', text });
    $('chat-text').value = '';
  });
  $('hand').addEventListener('keydown', (ev) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(ev.key)) return;
    const buttons = [...$('hand').querySelectorAll('button')];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    const rtl = document.documentElement.dir === 'rtl';
    let j = i;
    if (ev.key === 'Home') j = 0;
    else if (ev.key === 'End') j = buttons.length - 1;
    else j = i + ((ev.key === 'ArrowRight') !== rtl ? 1 : -1);
    j = Math.max(0, Math.min(buttons.length - 1, j));
    buttons[j].focus();
    ev.preventDefault();
  });
  window.addEventListener('resize', layoutHand);
  setInterval(tick, 1000);
}

function connect() {
  S.conn = new Connection(S.tableId, S.token, {
    snapshot: onSnapshot, event: onEvent, chat: onChat, hint: onHint, error: onError,
    status: onStatus, rematch: onRematch, other: (m) => { if (m.type === 'presence') onPresence(m); },
  });
  S.conn.start();
  window.fortiesConnection = S.conn; // for the browser tests: drop the connection on purpose
}

// how = { invite: CODE } from an invite link, or { seat: N } from a public table's lobby
async function join(how) {
  $('join').hidden = false;
  $('join-name').value = savedName();
  $('join-name').focus();
  const go = async () => {
    const name = $('join-name').value.trim();
    if (!name) { $('join-error').textContent = t('join.need_name'); return; }
    saveName(name);
    try {
      const r = await api(`/api/tables/${encodeURIComponent(S.tableId)}/join`, { ...how, name });
      S.token = r.token;
      saveSeat(S.tableId, r.token);
      $('join').hidden = true;
      connect();
    } catch (e) {
      $('join-error').textContent = errorText(e);
    }
  };
  $('join-go').addEventListener('click', go);
  $('join-name').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') go(); });
}

/** The account's page, opened from this table and coming back to it once signed up or in. */
let signedIn = null; // null until asked, then whether this browser is signed in
function accountHref() {
  return `/account?back=${encodeURIComponent(location.pathname)}`;
}

/** The More panel's link: "Make an account" for a guest, "Your account" once signed in. */
async function accountLink() {
  try { signedIn = Boolean((await api('/api/account')).account); } catch (e) { signedIn = false; }
  const link = $('b-account');
  link.href = accountHref();
  link.dataset.i18n = signedIn ? 'account.heading' : 'table.account.make';
  link.textContent = t(link.dataset.i18n);
  if (S.view) render();
}

async function main() {
  await loadLanguage(preferredLanguage());
  setupPanels();
  const frag = new URLSearchParams(location.hash.slice(1));
  const token = frag.get('token');
  const invite = frag.get('invite');
  const openSeat = frag.get('seat');
  const watch = frag.has('watch'); // a watch link: a spectator, whatever seat this browser has
  if (token) saveSeat(S.tableId, token);
  if (location.hash && !watch) history.replaceState(null, '', location.pathname + location.search);
  S.token = token || (watch ? null : savedSeat(S.tableId));
  const more = $('more');
  const langSelect = h('select', { id: 'lang', 'aria-label': t('common.language') });
  more.insertBefore(h('label', { class: 'row' }, h('span', { text: t('common.language') }), langSelect),
    more.querySelector('#more-buttons'));
  more.insertBefore(teachSwitch(render), more.querySelector('#more-buttons'));
  await languagePicker(langSelect, () => {
    $('phrases').replaceChildren(...PHRASES.map((p) => h('button', { type: 'button', dataset: { phrase: p },
      text: t(`phrase.${p}`), onclick: () => S.conn && S.conn.send({ type: 'chat', phrase: p }) })));
    renderChat();
    drawControls($('feel'));
    $('raise-setting').replaceWith(raiseSetting(() => render()));
    render();
  });
  accountLink();
  if (!S.token && (invite || openSeat)) {
    join(invite ? { invite } : { seat: Number(openSeat) });
    return;
  }
  connect();
}

main();

