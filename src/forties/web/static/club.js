// The clubs' page: the account's clubs and a new one (/clubs), a club (/club/ID: its house
// rules, calendar, directors and members, a table by its house rules for its members, and
// what its directors do there), and joining
// one by its invite link (/club/ID/join#key=...: the key kept on this device and taken
// out of the address; a guest signs in or makes an account first and comes back here).
import { t, tn, language, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { api, h, copyText, saveInvites, saveSeat, valueText } from './util.js';
import { presetName } from './history.js';
import './theme.js';

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split('/');
const mode = parts[1] === 'clubs' ? 'list' : (parts[3] === 'join' ? 'join' : 'club');
const clubId = mode === 'list' ? '' : decodeURIComponent(parts[2] || '');
const JOIN_KEY = `forties.club-join.${clubId}`;
let me = null;
let club = null;
let mine = [];

/** A refusal in the reader's words (by the server's code), else the server's line. */
function refusal(e) {
  const words = {
    club_name: t('club.err.club_name'), rules: t('club.err.rules'),
    not_director: t('club.err.not_director'), last_director: t('club.err.last_director'),
    invite: t('club.err.invite'), invite_expired: t('club.err.invite_expired'),
    invite_used: t('club.err.invite_used'), clubs_full: t('club.err.clubs_full'),
    club_full: t('club.err.club_full'), not_member: t('club.err.not_member'),
    no_club: t('club.err.no_club'), invites_full: t('club.err.invites_full'),
    calendar_full: t('club.err.calendar_full'), when: t('club.err.when'),
    title: t('club.err.title'), signin: t('club.err.signin'), rate: t('error.code.rate'),
  };
  const code = e && e.code;
  return code && Object.prototype.hasOwnProperty.call(words, code) ? words[code]
    : String((e && e.message) || e);
}

function say(text) { $('status').textContent = text; $('error').textContent = ''; }
function fail(e) { $('error').textContent = refusal(e); }

function whenWords(seconds) {
  try {
    // (in the reader's own time: the device's clock knows its time zone)
    return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
  } catch (e) {
    return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }
}

function roleWords(role) {
  return role === 'director' ? t('club.role.director') : t('club.role.member');
}

function whereWords(where) {
  return where === 'online' ? t('club.where.online') : t('club.where.hall');
}

function signInLink(back) {
  $('guest').hidden = false;
  $('guest-link').href = `/account?back=${encodeURIComponent(back)}&lang=${language()}`;
}

// ----- /clubs --------------------------------------------------------------------------

function drawList() {
  $('heading').textContent = t('club.heading');
  $('mine').replaceChildren(...mine.map((c) => h('li', null,
    h('a', { href: c.url }, h('bdi', { text: c.name })), ` (${roleWords(c.role)})`)));
  $('mine-none').hidden = mine.length > 0;
}

async function presets() {
  try {
    const got = (await api('/api/presets')).filter((p) => p.players === 4);
    if (got.length) {
      $('new-preset').replaceChildren(...got.map((p) => h('option', { value: p.name, selected: p.name === 'nova-scotia' },
        presetName(p.name))));
    }
  } catch (e) { /* the default game stays */ }
}

async function makeClub(ev) {
  ev.preventDefault();
  const body = { name: $('new-name').value, preset: $('new-preset').value };
  if ($('new-target').value) body.options = { target: Number($('new-target').value) };
  try {
    const made = await api('/api/clubs', body);
    location.assign(made.url);
  } catch (e) { fail(e); }
}

// ----- /club/ID --------------------------------------------------------------------------

// where a director of the club directs an evening of its calendar, signed in, with no key
const DIRECTED = { hall: 'hall', duplicate: 'dup' };

function eventItem(e) {
  const where = DIRECTED[e.kind];
  const direct = club.you === 'director' && where
    ? [' ', h('a', { href: `/${where}/${encodeURIComponent(e.ref)}/director`, class: 'direct' }, t('club.calendar.direct', { title: e.title }))]
    : [];
  return h('li', { dataset: { event: e.ref } },
    h('span', { class: 'when', text: whenWords(e.at) }), t('colon'),
    h('a', { href: e.url }, h('bdi', { text: e.title })),
    ` (${whereWords(e.where)})`, ...direct);
}

function personItem(p) {
  const item = h('li', { dataset: { account: p.id, role: p.role } },
    h('a', { href: `/players/${encodeURIComponent(p.id)}` }, h('bdi', { text: p.name })),
    ` (${roleWords(p.role)})`);
  if (club.you === 'director' && me && p.id !== me.id) {
    const role = p.role === 'director' ? 'member' : 'director';
    const change = p.role === 'director' ? t('club.people.demote', { name: p.name })
      : t('club.people.promote', { name: p.name });
    item.append(' ', h('button', { type: 'button', class: 'small', onclick: () => act('role', { account: p.id, role }) }, change),
      ' ', h('button', { type: 'button', class: 'small', onclick: () => act('remove', { account: p.id }) },
        t('club.people.remove', { name: p.name })));
  }
  return item;
}

function drawClub() {
  if (!club) return;
  $('heading').textContent = club.name;
  document.title = t('club.page_title', { name: club.name });
  $('you').textContent = club.you ? t('club.you', { role: roleWords(club.you) }) : t('club.not_member');
  $('rules-preset').textContent = presetName(club.rules.preset);
  $('rules-summary').textContent = t(`preset.${club.rules.preset}.summary`, null, club.rules.summary);
  $('rules-changes').replaceChildren(...club.rules.changes.map((c) => h('li', null,
    `${t(`option.${c.name}.label`, null, c.name)}${t('colon')}${valueText(c.value)}`)));
  $('upcoming').replaceChildren(...club.upcoming.map(eventItem));
  $('upcoming-none').hidden = club.upcoming.length > 0;
  $('past').replaceChildren(...club.past.map(eventItem));
  $('past-none').hidden = club.past.length > 0;
  $('seasons-link').href = `/club/${encodeURIComponent(club.id)}/seasons`;
  $('dup-link').href = `/dup?club=${encodeURIComponent(club.id)}`;
  $('count').textContent = tn('club.people.count', club.count, { count: club.count });
  $('people').replaceChildren(...(club.members || club.directors).map(personItem));
  const director = club.you === 'director';
  $('evening-box').hidden = !director;
  $('invite-box').hidden = !director;
  $('leave-box').hidden = !club.you;
  $('table-box').hidden = !club.you;
}

async function loadClub() {
  club = await api(`/api/clubs/${encodeURIComponent(clubId)}`);
  drawClub();
}

async function act(what, body) {
  try {
    await api(`/api/clubs/${encodeURIComponent(clubId)}/${what}`, body);
    await loadClub();
    say(t('club.done'));
  } catch (e) { fail(e); }
}

async function addEvening(ev) {
  ev.preventDefault();
  // the date and time as the director's device reads them (its own time zone), sent in UTC
  const local = `${$('evening-date').value}T${$('evening-time').value}`;
  const at = new Date(local);
  const when = Number.isNaN(at.getTime()) ? local : at.toISOString().slice(0, 16);
  const body = { title: $('evening-title').value, when,
    where: $('evening-where').value, games: Number($('evening-games').value) };
  try {
    const made = await api(`/api/clubs/${encodeURIComponent(clubId)}/evenings`, body);
    $('evening-link').href = made.director;
    $('evening-made').hidden = false;
    await loadClub();
    say(t('club.evening.made'));
  } catch (e) { fail(e); }
}

async function newTable() {
  try {
    const made = await api('/api/tables', { preset: club.rules.preset, options: club.rules.options, name: me.name });
    saveSeat(made.table, made.token);
    saveInvites(made.table, made.invites || []);
    location.assign(made.url);
  } catch (e) { fail(e); }
}

async function invite() {
  try {
    const made = await api(`/api/clubs/${encodeURIComponent(clubId)}/invite`, {});
    $('invite-link').value = new URL(made.url, location.href).toString();
    $('invite-made').hidden = false;
    $('invite-link').focus();
    $('invite-link').select();
    say(t('club.invite.made'));
  } catch (e) { fail(e); }
}

async function leave() {
  try {
    await api(`/api/clubs/${encodeURIComponent(clubId)}/leave`, {});
    location.assign('/clubs');
  } catch (e) { fail(e); }
}

// ----- /club/ID/join ---------------------------------------------------------------------

async function join() {
  try {
    await api(`/api/clubs/${encodeURIComponent(clubId)}/join`, { key: localStorage.getItem(JOIN_KEY) || '' });
    localStorage.removeItem(JOIN_KEY);
    location.assign(`/club/${encodeURIComponent(clubId)}`);
  } catch (e) { fail(e); }
}

function draw() {
  if (mode === 'list') drawList();
  else drawClub();
  if (mode === 'join' && club) $('join-text').textContent = t('club.join.text', { name: club.name });
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), draw);
  const m = location.hash.match(/key=([A-Za-z0-9_-]+)/);
  if (m && mode === 'join') {
    try { localStorage.setItem(JOIN_KEY, m[1]); } catch (e) { /* this page only */ }
    history.replaceState(null, '', location.pathname + location.search);
  }
  $('new-form').addEventListener('submit', makeClub);
  $('evening-form').addEventListener('submit', addEvening);
  $('invite-go').addEventListener('click', invite);
  $('invite-copy').addEventListener('click', () => copyText($('invite-link').value, $('invite-link')));
  $('leave-go').addEventListener('click', leave);
  $('table-go').addEventListener('click', newTable);
  $('join-go').addEventListener('click', join);
  $('evening-date').value = new Date(Date.now() + 7 * 86400000).toISOString().slice(0, 10);
  try {
    me = (await api('/api/account')).account;
    if (mode === 'list') {
      if (!me) signInLink('/clubs');
      else {
        mine = (await api('/api/clubs')).clubs;
        await presets();
        $('list').hidden = false;
        drawList();
      }
    } else {
      await loadClub();
      if (mode === 'join') {
        if (!me) signInLink(`/club/${clubId}/join`);
        else if (club.you) location.replace(`/club/${encodeURIComponent(clubId)}`);
        else {
          $('join').hidden = false;
          draw();
        }
      } else {
        $('club').hidden = false;
      }
    }
  } catch (e) { fail(e); }
  document.body.dataset.ready = '1';
}

main();
