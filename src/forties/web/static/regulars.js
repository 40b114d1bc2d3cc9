// Regulars: on the home page, the invitations to a seat waiting for this account and the
// players it follows (online or not, and the public table each is at); on a waiting
// table's panel, the host's invitation of an online regular to an empty seat.
import { t } from './i18n.js';
import { api, h, saveSeat } from './util.js';

const POLL_MS = 20000;

/** A refusal in the page's words where the server's code has them, else its own line. */
function refusal(e) {
  const words = {
    blocked: () => t('regulars.error.blocked'),
    not_followed: () => t('regulars.error.not_followed'),
    invite_gone: () => t('regulars.error.invite_gone'),
    invites_full: () => t('regulars.error.invites_full'),
    taken: () => t('error.code.taken'),
    started: () => t('error.code.started'),
    rate: () => t('error.code.rate'),
  }[e && e.code];
  return words ? words() : String((e && e.message) || e);
}

// ----- the home page ----------------------------------------------------------------------

let home = null; // {invites, following, title}

/** Start the home page's regulars (a signed-in account only): `gameTitle(preset)` names a
 *  game in the page's language. Asked again every POLL_MS (this also keeps the account
 *  online while the page is open). */
export async function startRegulars(gameTitle) {
  home = { invites: [], following: [], title: gameTitle };
  await refreshHome();
  setInterval(refreshHome, POLL_MS);
}

async function refreshHome() {
  try {
    const [inv, reg] = await Promise.all([api('/api/regulars/invites'), api('/api/regulars')]);
    home.invites = inv.invites;
    home.following = reg.following;
  } catch (e) {
    return; // signed out meanwhile, or the network: the last list stays
  }
  renderRegulars();
}

/** Draw the home page's section (again, after a change of language). */
export function renderRegulars() {
  const box = document.getElementById('regulars-box');
  if (!box || !home) return;
  box.hidden = false;
  const notices = document.getElementById('notices');
  notices.replaceChildren(...home.invites.map((inv) => h('li', { dataset: { invite: inv.id } },
    h('span', { text: t('regulars.notice', { name: inv.from.name, game: home.title(inv.game),
      seat: inv.seat + 1 }) }),
    h('span', { class: 'row' },
      h('button', { type: 'button', class: 'primary', text: t('regulars.accept'),
        onclick: () => answer(inv, 'accept') }),
      h('button', { type: 'button', text: t('regulars.decline'),
        onclick: () => answer(inv, 'decline') })))));
  document.getElementById('notices-none').hidden = home.invites.length > 0;
  const list = document.getElementById('following');
  list.replaceChildren(...home.following.map((r) => {
    const li = h('li', {}, h('b', { text: r.name }), ' ',
      h('span', { class: 'muted', text: t(r.online ? 'regulars.online' : 'regulars.offline') }));
    if (r.table) {
      li.append(' ', h('a', { href: r.table.url, text: t('regulars.at_table') }));
    }
    return li;
  }));
  document.getElementById('following-none').hidden = home.following.length > 0;
}

async function answer(inv, how) {
  const said = document.getElementById('notices-error');
  said.textContent = '';
  try {
    const r = await api(`/api/regulars/invites/${encodeURIComponent(inv.id)}/${how}`, {});
    if (how === 'accept') {
      saveSeat(r.table, r.token);
      location.href = r.url;
      return;
    }
  } catch (e) {
    said.textContent = refusal(e);
  }
  home.invites = home.invites.filter((x) => x.id !== inv.id);
  renderRegulars();
}

// ----- the waiting table's panel ----------------------------------------------------------

const panel = { node: null, regulars: null, asked: 0, key: '', status: '' };

/** The host's "Invite a regular" block for the waiting panel, or null (a guest host, or
 *  no account: nothing to show). `redraw` is called when the list of regulars comes. */
export function inviteBlock(table, tableId, token, you, redraw) {
  if (Date.now() - panel.asked > POLL_MS) {
    panel.asked = Date.now();
    api('/api/regulars').then((r) => { panel.regulars = r.following; redraw(); },
      () => { panel.regulars = null; });
  }
  if (!panel.regulars) return null;
  const online = panel.regulars.filter((r) => r.online);
  const empty = table.seats.filter((s) => s.kind === 'empty' && s.seat !== you);
  if (!empty.length) return null;
  const key = JSON.stringify([document.documentElement.lang, online.map((r) => r.id),
    empty.map((s) => s.seat)]);
  if (panel.node && panel.key === key) return panel.node;
  panel.key = key;
  const keep = panel.node && {
    who: panel.node.querySelector('#regular-who') && panel.node.querySelector('#regular-who').value,
    seat: panel.node.querySelector('#regular-seat') && panel.node.querySelector('#regular-seat').value,
  };
  const items = [h('h3', { id: 'regular-h', text: t('regulars.invite.heading') })];
  if (!online.length) {
    items.push(h('p', { class: 'muted', text: t('regulars.invite.none') }));
  } else {
    const who = h('select', { id: 'regular-who' },
      ...online.map((r) => h('option', { value: r.id, text: r.name })));
    const seat = h('select', { id: 'regular-seat' },
      ...empty.map((s) => h('option', { value: String(s.seat),
        text: t('table.seat_n', { seat: s.seat + 1 }) })));
    if (keep && online.some((r) => r.id === keep.who)) who.value = keep.who;
    if (keep && empty.some((s) => String(s.seat) === keep.seat)) seat.value = keep.seat;
    const said = h('p', { id: 'regular-said', role: 'status', text: panel.status });
    const send = async () => {
      const name = who.options[who.selectedIndex].text;
      try {
        await api('/api/regulars/invite', { table: tableId, seat: Number(seat.value),
          account: who.value, token });
        panel.status = t('regulars.invite.sent', { name, seat: Number(seat.value) + 1 });
      } catch (e) {
        panel.status = refusal(e);
      }
      said.textContent = panel.status;
    };
    items.push(h('div', { class: 'row' },
      h('label', { class: 'field' }, h('span', { text: t('regulars.invite.who') }), who),
      h('label', { class: 'field' }, h('span', { text: t('regulars.invite.seat') }), seat),
      h('button', { type: 'button', id: 'regular-invite', text: t('regulars.invite.button'),
        onclick: send })), said);
  }
  panel.node = h('section', { class: 'regulars-invite', 'aria-labelledby': 'regular-h' }, ...items);
  return panel.node;
}
