// The score pad on a phone. The server scores every hand with the engine's own rules; this
// page only asks for what the table knows, shows the pad the server sends back, and keeps
// hands typed while the connection is down, sending them when it is back.
import { applyTranslations, languagePicker, loadLanguage, preferredLanguage, t, tn } from './i18n.js';
import { showBeside } from './nearby.js';
import './theme.js';

const $ = (id) => document.getElementById(id);
const SUITS = ['C', 'D', 'H', 'S'];
const SUIT_IDS = { C: 'suit.C', D: 'suit.D', H: 'suit.H', S: 'suit.S' };
const SUIT_EN = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const DEFAULT_NAMES = ['Ann', 'Bob', 'Cy', 'Di', 'Ed', 'Flo'];

const path = location.pathname.split('/').filter(Boolean);
const padId = path[0] === 'pad' && path[1] ? path[1] : null;
let key = null;
let pad = null;        // the server's pad (Pad.summary_json + id, version)
let editing = null;    // the hand number being corrected, or null
let presets = [];

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v;
    else if (k === 'class') node.className = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids) if (kid) node.append(kid);
  return node;
}

// a refusal is said beside the button or box that caused it (nearby.js); `control` null:
// where it stands (a hand kept offline and refused later, a failed poll)
const errorBox = $('error');
function showError(text, control) { showBeside(errorBox, text || '', control); }

// A box of a number that holds something else: refused in words, not counted as 0.
class NotANumber extends Error {
  constructor(input, name) {
    // (each isolated, so that Latin names and letters read right in an Arabic line)
    const iso = (x) => `\u2068${x}\u2069`;
    super(t('pad.ui.not_number', { name: iso(name), text: iso(input.value.trim()) },
      '{name}: “{text}” is not a number'));
    this.input = input;
  }
}

// ----- the connection ---------------------------------------------------------------------

class Offline extends Error {}

async function api(method, url, body) {
  let r;
  try {
    r = await fetch(url, {
      method, headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new Offline(t('pad.ui.offline_now', null, 'The connection is down.'));
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    if (r.status >= 500 && !(data && data.error)) throw new Offline(String(r.status));
    throw new Error((data && data.error && refusalText(data))
      || t('pad.ui.refused', null, 'The server refused that.'));
  }
  return data;
}

// Hands typed while offline: kept on the phone, sent in order when the server answers.
const queueKey = () => 'forties.pad.queue.' + padId;
function queue() {
  try { return JSON.parse(localStorage.getItem(queueKey()) || '[]'); } catch (e) { return []; }
}
function saveQueue(q) { localStorage.setItem(queueKey(), JSON.stringify(q)); }

async function flush() {
  let q = queue();
  while (q.length) {
    const job = q[0];
    try {
      pad = await api(job.method, job.url, { key, hand: job.hand });
    } catch (e) {
      if (e instanceof Offline) break;
      showError(e.message, null);  // the server refused it: the scorekeeper sees why
    }
    q = q.slice(1);
    saveQueue(q);
  }
  render();
  return q.length === 0;
}

// ----- words ------------------------------------------------------------------------------

function joinNames(list) {
  if (list.length <= 1) return list.join('');
  return t('pad.ui.and', { a: list.slice(0, -1).join(', '), b: list[list.length - 1] },
    '{a} and {b}');
}
const seatName = (s) => pad.names[s];
const sideName = (x) => joinNames(pad.sides[x].map(seatName));
function suitWord(s) { return SUITS.includes(s) ? t(SUIT_IDS[s], null, SUIT_EN[s]) : s; }

// A refusal the server gives a code for, in the reader's language (its English line else).
function refusalText(data) {
  const w = data.words || {};
  if (!data.code) return data.error;
  const vars = { ...w };
  if (pad && w.side !== undefined) vars.side = sideName(w.side);
  if (pad && w.seat !== undefined) vars.name = seatName(w.seat);
  if (data.code === 'over') {
    if (!pad || !pad.rows.length || !pad.rows[pad.rows.length - 1].won) return data.error;
    vars.result = wonText(pad.rows[pad.rows.length - 1]);
  }
  if (data.code === 'bid' && !w.bid) vars.bid = '—';
  if (data.code === 'names-count' && w.preset) vars.preset = t(`preset.${w.preset}.title`, null, w.preset);
  const id = `pad.err.${data.code}`;
  // "1 point ?": the one refusal that says a count with its noun
  const counted = data.code === 'points-fives' || data.code === 'points-negative';
  const text = counted ? tn(id, w.points, vars, '') : t(id, vars, '');
  return text && !/\{\w+\}/.test(text) ? text : data.error;
}

function reasonText(code) {
  const n = pad.target;
  const words = {
    first: t('pad.ui.why.first', { n }, 'first to {n}'),
    'bidder-goes-out': t('pad.ui.why.bidder', null, 'bidder goes out'),
    highest: t('pad.ui.why.highest', { n }, 'highest score past {n}'),
    green: t('pad.ui.why.green', null, 'only a bidding side goes out on the green'),
    partners: t('pad.ui.why.partners', null, 'partners go out together'),
    'positive-partner': t('pad.ui.why.positive', { n }, '{n} with a partner above 0'),
    'tie-lower-partner': t('pad.ui.why.tie_lower', { n }, 'both teams past {n}: the higher lower partner'),
    'tie-team-total': t('pad.ui.why.tie_total', { n }, 'both teams past {n}: the higher team total'),
  };
  return words[code] || code;
}

function wonText(row) {
  const names = joinNames(row.winner.map(seatName));
  const why = reasonText(row.reason);
  if (pad.match === 'best-of-3' && !row.match_over) {
    return t('pad.ui.won_game', { names, g: row.game, why }, '{names}: game {g} won ({why})');
  }
  return row.winner.length === 1 ? t('pad.ui.wins', { names, why }, '{names} wins: {why}')
    : t('pad.ui.win', { names, why }, '{names} win: {why}');
}

function noteText(kind, who) {
  switch (kind) {
    case 'made-30-60': return t('pad.ui.note.made_30_60', null, '30 made scores 60');
    case 'locked': return t('pad.ui.note.locked', { name: sideName(who), n: pad.lock_at },
      '{name} locked at {n}: no score without the bid');
    case 'reset': return t('pad.ui.note.reset', { name: sideName(who) }, '{name} on 45 exactly: back to 0');
    case 'double': return t('pad.ui.note.double', { name: seatName(who) }, "{name}'s bid doubled");
    case 'partner-not-positive': return t('pad.ui.note.partner', { name: seatName(who), n: pad.target },
      '{name} is past {n} but the partner is not above 0');
    case 'hanging': return t('pad.ui.note.hanging', { name: sideName(who), n: pad.target - 5 },
      '{name} hung on {n}');
    default: return '';
  }
}

function rowText(row) {
  const parts = [];
  if (pad.game === 'forty-one') {
    if (!row.tricks) {
      const total = row.bids.reduce((a, b) => a + b, 0);
      return t('pad.ui.thrown41', { n: total, min: pad.min_total }, 'bids total {n}, under {min}: thrown in');
    }
    const made = [0, 1, 2, 3].filter((s) => row.tricks[s] >= row.bids[s]).map(seatName);
    const set = [0, 1, 2, 3].filter((s) => row.tricks[s] < row.bids[s]).map(seatName);
    if (made.length) parts.push(t('pad.ui.made41', { names: joinNames(made) }, 'made: {names}'));
    if (set.length) parts.push(t('pad.ui.set41', { names: joinNames(set) }, 'set: {names}'));
  } else if (row.thrown_in) {
    return t('pad.ui.thrown', null, 'nobody bid: thrown in');
  } else if (row.bidder !== undefined && row.bidder !== null) {
    const args = { name: seatName(row.bidder), bid: row.bid };
    let head = row.made ? t('pad.ui.made', args, '{name} bid {bid}: made')
      : t('pad.ui.set', args, '{name} bid {bid}: set');
    if (row.trump) head += ' · ' + suitWord(row.trump);
    if (row.partner !== undefined && row.partner !== null) {
      head += ' · ' + t('pad.ui.with', { name: seatName(row.partner) }, 'with {name}');
    }
    parts.push(head);
  } else if (row.trump) {
    parts.push(t('pad.ui.turned', { card: suitWord(row.trump) }, '{card} turned up'));
  }
  for (const [kind, who] of row.notes) {
    const text = noteText(kind, who);
    if (text) parts.push(text);
  }
  if (row.won) parts.push(wonText(row));
  return parts.join('; ');
}

// ----- the pad ----------------------------------------------------------------------------

function render() {
  if (!pad) return;
  $('pad').hidden = false;
  $('title').textContent = pad.title || t('pad.ui.title', null, 'Score pad');
  const last = pad.rows[pad.rows.length - 1];
  $('result').hidden = !pad.over;
  $('result').textContent = pad.over ? wonText(last) : '';
  $('next').textContent = pad.over ? '' : t('pad.ui.next_deal', { name: seatName(pad.dealer), n: pad.rows.length + 1 },
    'Hand {n}: {name} deals');
  const sheet = $('sheet');
  const cols = pad.game === 'forty-one' ? pad.names : pad.sides.map((_, x) => sideName(x));
  const head = el('tr', {}, el('th', { scope: 'col', text: '#' }),
    ...cols.map((n) => el('th', { scope: 'col', text: n })),
    el('th', { scope: 'col', text: t('pad.ui.what', null, 'What happened') }));
  const body = pad.rows.map((row) => {
    const what = el('td', { class: 'pad-what', text: rowText(row) });
    if (key) {
      what.append(' ', el('button', { type: 'button', class: 'pad-fix', 'data-hand': row.hand,
        text: t('pad.ui.fix', null, 'Correct') }));
    }
    return el('tr', { class: row.won ? 'pad-won' : '' }, el('th', { scope: 'row', text: String(row.hand) }),
      ...row.scores.map((s) => el('td', { text: String(s) })), what);
  });
  const pending = queue().map((job, i) => el('tr', { class: 'pad-pending' },
    el('th', { scope: 'row', text: '…' }),
    el('td', { colspan: String(cols.length + 1),
      text: t('pad.ui.waiting', { n: i + 1 }, 'waiting to be sent ({n})') })));
  sheet.replaceChildren(el('thead', {}, head), el('tbody', {}, ...body, ...pending));
  for (const b of sheet.querySelectorAll('button.pad-fix')) {
    b.addEventListener('click', () => startCorrecting(Number(b.dataset.hand)));
  }
  const waiting = queue().length;
  $('offline').hidden = waiting === 0;
  $('offline').textContent = waiting ? t('pad.ui.offline', { n: waiting },
    'No connection: hands waiting on this phone: {n}. They are sent when it is back.') : '';
  $('watching').hidden = Boolean(key);
  $('undo').hidden = !key || pad.rows.length === 0;
  $('share-box').hidden = !key;
  $('share').value = location.origin + '/pad/' + pad.id;
  $('csv').href = '/api/pads/' + pad.id + '/export.csv';
  $('json').href = '/api/pads/' + pad.id + '/export.json';
  const canEnter = key && (!pad.over || editing !== null);
  $('entry').hidden = !canEnter;
  if (canEnter && !$('fields').dataset.built) buildForm(editing ? pad.rows[editing - 1] : null);
}

// ----- the entry form ---------------------------------------------------------------------

function select(id, label, options, value) {
  const s = el('select', { id });
  for (const [v, text] of options) s.append(el('option', { value: v, text }));
  if (value !== undefined && value !== null) s.value = String(value);
  return el('label', {}, el('span', { text: label }), s);
}

function numbers(prefix, labels, values, step) {
  return el('div', { class: 'pad-row' }, ...labels.map((name, i) => el('label', {},
    el('span', { text: name }),
    // a text box with the phone's number keys: what is typed stays, and a letter is
    // refused in words (a number box would drop it and count the box as 0)
    el('input', { id: prefix + i, type: 'text', inputmode: 'numeric', autocomplete: 'off',
      'data-name': name, 'data-step': String(step), value: values ? String(values[i]) : '' }))));
}

function buildForm(row) {
  const f = $('fields');
  f.replaceChildren();
  f.dataset.built = '1';
  $('entry-title').textContent = row ? t('pad.ui.correct', { n: row.hand }, 'Correct hand {n}')
    : t('pad.ui.hand', { n: pad.rows.length + 1 }, 'Hand {n}');
  $('enter').textContent = row ? t('pad.ui.save_fix', null, 'Save the correction') : t('pad.ui.enter', null, 'Enter the hand');
  $('cancel').hidden = !row;
  const seats = pad.names.map((n, i) => [String(i), n]);
  if (pad.game === 'forty-one') {
    f.append(el('h3', { text: t('pad.ui.bids', null, 'Bids') }), numbers('bid', pad.names, row && row.bids, 1));
    f.append(el('h3', { text: t('pad.ui.tricks', null, 'Tricks') }), numbers('tricks', pad.names, row && row.tricks, 1));
  } else {
    if (pad.turned_up) {
      f.append(el('label', {}, el('span', { text: t('pad.ui.turned_up', null, 'Card turned up (optional)') }),
        el('input', { id: 'trump', maxlength: '3', value: row && row.trump ? row.trump : '' })));
    } else {
      const thrown = row && row.thrown_in;
      if (pad.may_throw_in) {
        const box = el('input', { id: 'thrown', type: 'checkbox' });
        box.checked = Boolean(thrown);
        f.append(el('label', {}, box, ' ', t('pad.ui.thrown_in', null, 'Nobody bid (thrown in)')));
      }
      f.append(el('div', { class: 'pad-row' },
        select('bidder', t('pad.ui.bidder', null, 'Who won the bid'), seats, row ? row.bidder : null),
        select('bid', t('pad.ui.bid', null, 'Bid'), pad.bids.map((b) => [b, b]), row ? row.bid : null),
        select('trump', t('pad.ui.trump', null, 'Trump'),
          [['', t('pad.ui.trump_none', null, 'not noted')], ...SUITS.map((s) => [s, suitWord(s)])],
          row ? row.trump || '' : '')));
      if (pad.call_partner) {
        f.append(select('partner', t('pad.ui.partner', null, 'Partner (held the called card)'),
          [['', t('pad.ui.alone', null, 'alone')], ...seats], row && row.partner !== undefined ? row.partner : ''));
      }
    }
    f.append(el('h3', { text: t('pad.ui.points', null, 'Points') }),
      numbers('points', pad.sides.map((_, x) => sideName(x)), row && row.points, 5));
  }
  for (const input of f.querySelectorAll('input')) input.addEventListener('input', showSum);
  showSum();
}

// The numbers of the boxes prefix0, prefix1...: an empty box is 0; one that holds no whole
// number throws NotANumber (`strict`), or counts 0 in the running sum.
function values(prefix, n, strict = false) {
  const out = [];
  for (let i = 0; i < n; i += 1) {
    const input = $(prefix + i);
    const v = input.value.trim().replace(/^\u2212/, '-');
    const ok = v === '' || /^[+-]?[0-9]+$/.test(v);
    if (ok) input.removeAttribute('aria-invalid'); else input.setAttribute('aria-invalid', 'true');
    if (!ok && strict) throw new NotANumber(input, input.dataset.name);
    out.push(ok && v !== '' ? Number(v) : 0);
  }
  return out;
}

function showSum() {
  if (!pad || pad.game === 'forty-one') {
    if (pad && $('bid0')) {
      const b = values('bid', 4).reduce((a, x) => a + x, 0);
      const k = values('tricks', 4).reduce((a, x) => a + x, 0);
      $('sum').textContent = t('pad.ui.sum41', { b, k }, 'Bids {b} · tricks {k} of 13');
    }
    return;
  }
  const total = values('points', pad.side_names.length).reduce((a, x) => a + x, 0);
  $('sum').textContent = t('pad.ui.sum', { n: total }, 'Points so far: {n} of 30');
}

function handFromForm() {
  if (pad.game === 'forty-one') return { bids: values('bid', 4, true), tricks: values('tricks', 4, true) };
  if ($('thrown') && $('thrown').checked) return { thrown_in: true };
  const hand = { points: values('points', pad.side_names.length, true) };
  const trump = $('trump') ? $('trump').value.trim().toUpperCase() : '';
  if (trump) hand.trump = trump;
  if (!pad.turned_up) {
    hand.bidder = Number($('bidder').value);
    hand.bid = $('bid').value;
    if ($('partner') && $('partner').value !== '') hand.partner = Number($('partner').value);
  }
  return hand;
}

function startCorrecting(n) {
  editing = n;
  delete $('fields').dataset.built;
  render();
  $('entry').scrollIntoView({ block: 'start' });
}

function stopCorrecting() {
  editing = null;
  delete $('fields').dataset.built;
  render();
}

async function submitHand(ev) {
  ev.preventDefault();
  showError('');  // each tap starts afresh: no refusal of a hand as it was
  let hand;
  try {
    hand = handFromForm();
  } catch (e) {
    if (!(e instanceof NotANumber)) throw e;
    showError(e.message, e.input);
    e.input.focus();
    return;
  }
  const job = editing ? { method: 'PUT', url: '/api/pads/' + padId + '/hands/' + editing, hand }
    : { method: 'POST', url: '/api/pads/' + padId + '/hands', hand };
  if (queue().length) {  // offline already: keep it behind the others
    saveQueue([...queue(), job]);
    stopCorrecting();
    return;
  }
  try {
    pad = await api(job.method, job.url, { key, hand });
    stopCorrecting();
    entered();
  } catch (e) {
    if (e instanceof Offline) {
      saveQueue([...queue(), job]);
      stopCorrecting();
      return;
    }
    showError(e.message);
  }
}

/** After a hand is written down: its line, the totals and who deals next are read out,
 *  and the focus goes to the next hand's first field (or to the result of the game). */
function entered() {
  const last = pad.rows[pad.rows.length - 1];
  if (!last) return;
  if (pad.over) { // the result, a status line, says who won
    $('result').setAttribute('tabindex', '-1');
    $('result').focus();
    return;
  }
  const cols = pad.game === 'forty-one' ? pad.names : pad.sides.map((_, x) => sideName(x));
  const totals = cols.map((n, i) => `${n} ${last.scores[i]}`).join(', ');
  $('announce').textContent = `${rowText(last)}. ${totals}. ${$('next').textContent}`;
  $('fields').querySelector('input, select')?.focus();
}

// ----- starting a pad ---------------------------------------------------------------------

function parseOptions(text) {
  const out = {};
  for (const part of text.split(/[,\n]/)) {
    const p = part.trim();
    if (!p) continue;
    const at = p.indexOf('=');
    if (at < 1) throw new Error(t('pad.ui.bad_option', { text: p }, 'write a house rule as NAME=VALUE, not {text}'));
    out[p.slice(0, at).trim()] = p.slice(at + 1).trim();
  }
  return out;
}

// The players the form seats: the preset's, or a house rule players=N's (2 to 10).
function seatCount(p) {
  let opts = {};
  try { opts = parseOptions($('options').value); } catch (e) { opts = {}; }
  const n = Number(opts.players);
  return Number.isInteger(n) && n >= 2 && n <= 10 ? n : p.players;
}

function drawNewForm() {
  const p = presets.find((x) => x.name === $('preset').value) || presets[0];
  $('preset-summary').textContent = t(['preset', p.name, 'summary'].join('.'), null, p.summary);
  const old = [...$('names').querySelectorAll('input')].map((i) => i.value);
  const n = seatCount(p);
  $('names').replaceChildren(...Array.from({ length: n }, (_, i) => el('label', {},
    el('span', { text: t('pad.ui.seat', { n: i + 1 }, 'Seat {n}') }),
    el('input', { id: 'name' + i, maxlength: '40', value: old[i] || DEFAULT_NAMES[i] || '' }))));
  $('first-dealer').replaceChildren(...Array.from({ length: n }, (_, i) => el('option',
    { value: String(i), text: t('pad.ui.seat', { n: i + 1 }, 'Seat {n}') })));
}

async function startNew() {
  // the form shows once it can be sent: before the games have come, a tap on its button
  // would reload the page
  try {
    presets = await api('GET', '/api/pads/presets');
  } catch (e) { showError(e.message); return; }
  $('preset').replaceChildren(...presets.map((p) => el('option', { value: p.name,
    text: t(['preset', p.name, 'title'].join('.'), null, p.name) })));
  $('preset').addEventListener('change', drawNewForm);
  $('options').addEventListener('input', () => {  // a house rule players=N: N seats
    const p = presets.find((x) => x.name === $('preset').value) || presets[0];
    if ($('names').querySelectorAll('input').length !== seatCount(p)) drawNewForm();
  });
  drawNewForm();
  $('new').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError('');
    try {
      const names = [...$('names').querySelectorAll('input')].map((i) => i.value.trim());
      const made = await api('POST', '/api/pads', {
        preset: $('preset').value, names, first_dealer: Number($('first-dealer').value),
        options: parseOptions($('options').value), title: $('pad-title').value.trim(),
      });
      localStorage.setItem('forties.pad.key.' + made.pad, made.key);
      location.assign(made.url);
    } catch (e) { showError(e.message); }
  });
  $('new').hidden = false;
}

// ----- watching and keeping -----------------------------------------------------------------

async function poll() {
  try {
    if (queue().length) await flush();
    const since = pad ? '?since=' + pad.version : '';
    const got = await api('GET', '/api/pads/' + padId + since);
    if (!got.same) {
      pad = got;
      if (editing === null) delete $('fields').dataset.built;
      render();
    }
  } catch (e) {
    if (!(e instanceof Offline)) showError(e.message, null);
  }
  setTimeout(poll, key ? 5000 : 2500);
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), () => {
    applyTranslations(document);
    if (pad) { delete $('fields').dataset.built; render(); }
    if (!padId && presets.length) drawNewForm();  // the new-pad form in the new language
  });
  if (!padId) { startNew(); return; }
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('key');
  if (fromLink) {
    localStorage.setItem('forties.pad.key.' + padId, fromLink);
    history.replaceState(null, '', location.pathname + location.search);
  }
  key = localStorage.getItem('forties.pad.key.' + padId);
  // the server says what is wrong with a hand (points not by fives, a bad sum), in words;
  // the browser's own checks would block the tap without a word and leave an old message
  $('entry').noValidate = true;
  $('enter').addEventListener('click', () => showError(''));
  $('entry').addEventListener('submit', submitHand);
  $('cancel').addEventListener('click', stopCorrecting);
  $('undo').addEventListener('click', async () => {
    showError('');
    try { pad = await api('POST', '/api/pads/' + padId + '/undo', { key }); stopCorrecting(); } catch (e) { showError(e.message); }
  });
  $('copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText($('share').value); } catch (e) { $('share').select(); }
  });
  window.addEventListener('online', () => flush());
  poll();
}

main();
