// A player's page, seen by someone else signed in: follow them (they then show among "Your
// regulars" on the home page, online or not, and may be invited to a seat), or block them
// (they can no longer invite you, join your private tables or chat to you). A guest, and
// the player on their own page, see no such buttons.
import { t } from './i18n.js';
import { api, h } from './util.js';

let state = null; // {box, player, following, blocked, error}

function refusalWords(e) {
  if (e && e.code === 'blocked') return t('follow.error.blocked');
  if (e && e.code === 'rate') return t('error.code.rate');
  return String((e && e.message) || e);
}

async function act(path) {
  state.error = '';
  try {
    await api(path, { account: state.player.id });
    await load();
  } catch (e) {
    state.error = refusalWords(e);
  }
  draw();
}

async function load() {
  const listed = await api('/api/regulars');
  state.following = listed.following.some((r) => r.id === state.player.id);
  state.blocked = listed.blocked.some((r) => r.id === state.player.id);
}

/** The buttons' words, again in the page's language (after a change of language). */
export function draw() {
  if (!state) return;
  const { box, player, following, blocked } = state;
  const buttons = [];
  if (!blocked) {
    buttons.push(h('button', { type: 'button', id: 'follow', 'aria-pressed': String(following),
      onclick: () => act(following ? '/api/regulars/unfollow' : '/api/regulars/follow'),
      text: following ? t('follow.unfollow', { name: player.name })
        : t('follow.follow', { name: player.name }) }));
  }
  buttons.push(h('button', { type: 'button', id: 'block', class: 'secondary',
    'aria-pressed': String(blocked),
    onclick: () => act(blocked ? '/api/regulars/unblock' : '/api/regulars/block'),
    text: blocked ? t('follow.unblock', { name: player.name })
      : t('follow.block', { name: player.name }) }));
  const said = blocked ? t('follow.blocked_note', { name: player.name })
    : following ? t('follow.following_note', { name: player.name }) : '';
  box.replaceChildren(
    h('div', { class: 'row' }, ...buttons),
    said ? h('p', { class: 'muted', id: 'follow-note', text: said }) : null,
    state.error ? h('p', { class: 'error', role: 'alert', text: state.error }) : null);
}

/** Show the buttons in `box` for `player` ({id, name, yours}) to a signed-in visitor. */
export async function regularActions(box, player) {
  if (player.yours) return;
  let me = null;
  try {
    me = (await api('/api/account')).account;
  } catch (e) {
    return; // (the page stands without them)
  }
  if (!me) return;
  state = { box, player, following: false, blocked: false, error: '' };
  try {
    await load();
  } catch (e) {
    state.error = refusalWords(e);
  }
  draw();
}
