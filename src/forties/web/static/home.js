// The home page: play now, a private table built from the rules' own option list, the lobby.
import { t, tn, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { api, saveSeat, saveInvites, savedName, saveName, absolute, h, copyText, LEVELS, errorText, valueText,
  computerLevel, computerWords } from './util.js';
import { forgetRecent, recentItems } from './recent.js';
import { registerWorker } from './install.js';
import { themePicker } from './theme.js';
import { renderRegulars, startRegulars } from './regulars.js';

const $ = (id) => document.getElementById(id);
let presets = [];
let rules = null; // GET /api/rules answer for the chosen preset
const chosen = {}; // option name -> value the host changed

function presetTitle(p) {
  return t(`preset.${p.name}.title`, null, p.title || p.name);
}

function fillPresets(select) {
  const keep = select.value;
  select.replaceChildren(...presets.map((p) => h('option', { value: p.name, text: presetTitle(p) })));
  if (keep) select.value = keep;
}

function fillLevels(select) {
  const keep = select.value || 'basic';
  select.replaceChildren(...LEVELS.map((l) => h('option', { value: l, text: t(`level.${l}`) })));
  select.value = keep;
}

function showSummary() {
  const p = presets.find((x) => x.name === $('play-preset').value);
  $('play-summary').textContent = p ? t(`preset.${p.name}.summary`, null, p.summary || '') : '';
}

function optionControl(o) {
  const id = `opt-${o.name}`;
  const value = o.name in chosen ? chosen[o.name] : o.value;
  let control;
  if (o.kind === 'bool') {
    control = h('input', { id, type: 'checkbox', name: o.name });
    control.checked = !!value;
    control.addEventListener('change', () => setOption(o, control.checked));
  } else if (o.kind === 'int' && !(o.choices && o.choices.length)) {
    control = h('input', { id, type: 'number', name: o.name, min: o.min, max: o.max,
      inputmode: 'numeric' });
    control.value = value === null ? '' : String(value);
    control.addEventListener('change', () => {
      const n = control.value === '' ? null : Number(control.value);
      setOption(o, Number.isInteger(n) || n === null ? n : control.value);
    });
  } else {
    control = h('select', { id, name: o.name });
    (o.choices || []).forEach((c, i) => {
      control.appendChild(h('option', { value: String(i), text: valueText(c) }));
    });
    const at = (o.choices || []).findIndex((c) => c === value);
    control.value = String(Math.max(0, at));
    control.addEventListener('change', () => setOption(o, o.choices[Number(control.value)]));
  }
  const label = t(`option.${o.name}.label`, null, o.label || o.name);
  const help = t(`option.${o.name}.help`, null, o.help || '');
  const helpId = `${id}-help`;
  control.setAttribute('aria-describedby', helpId);
  const helpP = h('span', { class: 'help', id: helpId, text: help });
  if (o.kind === 'bool') {
    return h('div', { class: 'field' },
      h('label', { class: 'check', for: id }, control, h('span', { text: label })), helpP);
  }
  return h('div', { class: 'field' }, h('label', { for: id, text: label }), control, helpP);
}

async function loadRules() {
  const preset = $('t-preset').value;
  for (const k of Object.keys(chosen)) delete chosen[k];
  $('rules-error').textContent = '';
  try {
    rules = await api(`/api/rules?preset=${encodeURIComponent(preset)}`);
  } catch (e) {
    $('rules-error').textContent = e.message;
    return;
  }
  renderOptions();
}

function renderOptions() {
  if (!rules) return;
  $('options').replaceChildren(...rules.options.map(optionControl));
}

async function setOption(o, value) {
  if (value === o.value) delete chosen[o.name]; else chosen[o.name] = value;
  await checkRules();
}

/** Ask the engine whether the house rules go together; show its own message if not. */
async function checkRules() {
  try {
    await api('/api/rules', { preset: $('t-preset').value, options: chosen });
    $('rules-error').textContent = '';
    return true;
  } catch (e) {
    $('rules-error').textContent = e.message;
    return false;
  }
}

async function playNow() {
  $('play-error').textContent = '';
  const name = $('play-name').value.trim();
  saveName(name);
  $('play').setAttribute('aria-busy', 'true');
  try {
    const body = { preset: $('play-preset').value, level: $('play-level').value };
    if (name) body.name = name;
    const r = await api('/api/play', body);
    saveSeat(r.table, r.token);
    // a first game that teaches: the table says each rule as it comes up (teach.js)
    location.href = $('play-learn').checked ? `${r.url}&learn=1` : r.url;
  } catch (e) {
    $('play-error').textContent = errorText(e);
  } finally {
    $('play').removeAttribute('aria-busy');
  }
}

async function createTable() {
  $('create-error').textContent = '';
  if (!(await checkRules())) return;
  const name = $('t-name').value.trim() || t('common.host');
  saveName(name);
  const timer = $('t-timer').value;
  try {
    const r = await api('/api/tables', {
      preset: $('t-preset').value, options: chosen, name, public: $('t-public').checked,
      hints: $('t-hints').checked, turn_seconds: timer ? Number(timer) : null,
      level: $('t-level').value,
    });
    saveSeat(r.table, r.token);
    saveInvites(r.table, r.invites || []);
    showInvites(r);
  } catch (e) {
    $('create-error').textContent = errorText(e);
  }
}

/** One line per seat with its link and a copy button. */
export function inviteItems(invites) {
  return invites.map((inv) => {
    const link = absolute(inv.url);
    const field = h('input', { type: 'text', readonly: true, value: link,
      'aria-label': t('home.invite.link', { seat: inv.seat + 1 }) });
    const button = h('button', { type: 'button', class: 'copy', text: t('common.copy') });
    button.addEventListener('click', async () => {
      const ok = await copyText(link, field);
      button.textContent = ok ? t('common.copied') : t('common.copy');
    });
    const who = inv.team === undefined || inv.team === null
      ? t('home.invite.seat', { seat: inv.seat + 1 })
      : t('home.invite.seat_team', { seat: inv.seat + 1, team: inv.team + 1 });
    return h('li', { dataset: { seat: inv.seat } }, h('span', { text: who }), field, button);
  });
}

function showInvites(r) {
  $('invites').replaceChildren(...inviteItems(r.invites || []));
  $('go').href = r.url;
  $('created').hidden = false;
  $('created').scrollIntoView({ block: 'nearest' });
}

/** A seated player's name in the lobby: a computer player the host seated in the page's
 *  words ("Ordinateur (Joueur de club)"), not the server's "Computer (basic)". */
function lobbyName(s) {
  if (s.kind === 'computer' && s.level && computerLevel(s.name) === s.level) {
    return computerWords(s.level);
  }
  return s.name;
}

async function loadLobby() {
  let tables = [];
  try { tables = await api('/api/lobby'); } catch (e) { return; }
  $('lobby-empty').hidden = tables.length > 0;
  $('lobby').replaceChildren(...tables.map((tb) => {
    const p = presets.find((x) => x.name === tb.preset);
    const free = tb.seats.filter((s) => s.kind === 'empty' || !s.name).length;
    const names = tb.seats.filter((s) => s.name).map(lobbyName).join(', ');
    // an open seat's link (a name is asked there); a full table is there to watch
    const open = tb.seats.find((s) => s.url);
    return h('li', {}, h('a', { class: 'button', href: open ? open.url : `/t/${encodeURIComponent(tb.table)}` },
      `${p ? presetTitle(p) : tb.preset}: ${names || '—'} `,
      tn('home.lobby.free', free, { count: free }),
      tb.rated ? h('span', { class: 'lobby-rated', text: ` · ${t('home.lobby.rated')}` }) : null));
  }));
}

/** The device's own recent games (recent.js), hidden while there are none. */
function showRecent() {
  const title = (name) => {
    const p = presets.find((x) => x.name === name);
    return p ? presetTitle(p) : t(`preset.${name}.title`, null, name);
  };
  const items = recentItems(title, document.documentElement.lang || 'en');
  $('recent').replaceChildren(...items);
  $('recent-box').hidden = items.length === 0;
}

/** The header's link to the account's page: "Sign in or make an account", or "Your
 *  account (NAME)" with "My games" beside it. */
let account = null;
function showAccount() {
  $('account-link').textContent = account ? t('home.account.yours', { name: account.name })
    : t('home.account.signin');
  $('games-link').hidden = !account;
}

function retranslate() {
  showAccount();
  renderRegulars();
  showRecent();
  themePicker($('theme'));
  fillPresets($('play-preset'));
  fillPresets($('t-preset'));
  fillLevels($('play-level'));
  fillLevels($('t-level'));
  showSummary();
  renderOptions();
  loadLobby();
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), retranslate);
  try { account = (await api('/api/account')).account; } catch (e) { account = null; }
  showAccount();
  try { presets = await api('/api/presets'); } catch (e) { $('play-error').textContent = e.message; }
  fillPresets($('play-preset'));
  fillPresets($('t-preset'));
  fillLevels($('play-level'));
  fillLevels($('t-level'));
  $('play-name').value = savedName();
  $('t-name').value = savedName();
  showSummary();
  $('play-preset').addEventListener('change', showSummary);
  $('t-preset').addEventListener('change', loadRules);
  $('play').addEventListener('click', playNow);
  $('create').addEventListener('click', createTable);
  showRecent();
  themePicker($('theme'));
  $('recent-forget').addEventListener('click', () => { forgetRecent(); showRecent(); $('play').focus(); });
  await loadRules();
  await loadLobby();
  setInterval(loadLobby, 10000);
  if (account) {
    await startRegulars((name) => {
      const p = presets.find((x) => x.name === name);
      return p ? presetTitle(p) : name;
    });
  }
  document.body.dataset.ready = '1';
  registerWorker();
}

main();
