// The account's page (/account, and /account/link#CODE on another device): sign up with a
// name and a passkey, sign in with a passkey or a recovery code; signed in, the account's
// passkeys, another device's code, where it is signed in, new recovery codes, privacy.
// The passkeys' options come from the server (web.passkeys) as JSON with base64url bytes;
// the browser's answers go back the same way.
import { t, tn, loadLanguage, preferredLanguage, languagePicker, language } from './i18n.js';
import { api, h, copyText, absolute, errorText, saveName } from './util.js';

const $ = (id) => document.getElementById(id);
let me = null; // the account signed in (GET /api/account), or null
let codes = []; // recovery codes on show (only until "I have kept them")
let recovered = false; // signed in by a recovery code: a passkey should be added

// ----- bytes as base64url, both ways -------------------------------------------------------

function fromB64(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  let raw = '';
  for (const b of new Uint8Array(buffer)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function creationOptions(o) {
  return {
    ...o,
    challenge: fromB64(o.challenge),
    user: { ...o.user, id: fromB64(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function requestOptions(o) {
  return {
    ...o,
    challenge: fromB64(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function madeJSON(cred) {
  const r = cred.response;
  return {
    id: cred.id, rawId: toB64(cred.rawId), type: cred.type,
    response: {
      clientDataJSON: toB64(r.clientDataJSON),
      attestationObject: toB64(r.attestationObject),
      transports: typeof r.getTransports === 'function' ? r.getTransports() : [],
    },
  };
}

function usedJSON(cred) {
  const r = cred.response;
  return {
    id: cred.id, rawId: toB64(cred.rawId), type: cred.type,
    response: {
      clientDataJSON: toB64(r.clientDataJSON),
      authenticatorData: toB64(r.authenticatorData),
      signature: toB64(r.signature),
      userHandle: r.userHandle ? toB64(r.userHandle) : null,
    },
  };
}

// ----- what the page says ------------------------------------------------------------------

function say(text) {
  $('error').textContent = '';
  $('status').textContent = text || '';
}

/** A refusal in the reader's words: the passkey's own (cancelled, not offered), the
 *  server's by its code, or its line. */
function fail(e) {
  $('status').textContent = '';
  $('error').textContent = refusalWords(e);
}

function refusalWords(e) {
  if (e && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return t('account.err.cancelled');
  if (e && e.name === 'InvalidStateError') return t('account.err.have_one');
  if (e && e.name === 'SecurityError') return t('account.err.site');
  switch (e && e.code) {
    case 'name': return t('account.err.name');
    case 'name_taken': return t('account.err.name_taken');
    case 'name_scripts': return t('account.err.name_scripts');
    case 'suspended': return t('account.err.suspended');
    case 'recovery': return t('account.err.recovery');
    case 'code': return t('account.err.code');
    case 'link': return t('account.err.link');
    case 'unknown_passkey': return t('account.err.unknown_passkey');
    case 'last_passkey': return t('account.err.last_passkey');
    case 'challenge': return t('account.err.challenge');
    case 'passkey': case 'passkey_taken': return t('account.err.passkey');
    default: return errorText(e);
  }
}

function supported() {
  if (window.PublicKeyCredential && navigator.credentials) return true;
  $('error').textContent = t('account.err.no_passkeys');
  return false;
}

/** Run `work` with `button` marked busy (and not pressed twice meanwhile). */
async function busy(button, work) {
  if (button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  try {
    await work();
  } catch (e) {
    fail(e);
  } finally {
    button.removeAttribute('aria-disabled');
  }
}

function when(seconds) {
  if (!seconds) return t('account.never');
  try {
    return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
  } catch (e) {
    return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  }
}

// ----- the ceremonies ----------------------------------------------------------------------

async function makePasskey(beginPath, beginBody, finishPath, extra) {
  const begun = await api(beginPath, beginBody);
  const cred = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
  return api(finishPath, { challenge: begun.challenge, credential: madeJSON(cred), ...(extra || {}) });
}

/** The seats this device holds (the table pages keep each seat's key): claimed for the
 *  new account, so that a guest's games come with it (CLAIM_BATCH a request, as the
 *  server takes them). */
const CLAIM_BATCH = 30;
async function claimSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length && seats.length < 300; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith('forties.seat.')) {
      const token = localStorage.getItem(key);
      if (token && token.length <= 100) seats.push({ table: key.slice('forties.seat.'.length), token });
    }
  }
  for (let at = 0; at < seats.length; at += CLAIM_BATCH) {
    try {
      await api('/api/account/claim', { seats: seats.slice(at, at + CLAIM_BATCH) });
    } catch (e) { /* not offered by this server (404), or refused: the account stands */ }
  }
}

async function signUp() {
  if (!supported()) return;
  const name = $('signup-name').value.trim();
  if (!name) { $('error').textContent = t('account.err.name'); $('signup-name').focus(); return; }
  say(t('account.wait_passkey'));
  const got = await makePasskey('/api/account/signup/begin', { name }, '/api/account/signup/finish');
  saveName(got.account.name);
  await claimSeats();
  showCodes(got.recovery_codes);
  await refresh();
  say(t('account.welcome', { name: got.account.name }));
}

/** The table this page was opened from (`?back=/t/ID`, its More panel's link), or the
 *  club (`?back=/club/ID`, `/club/ID/join`: an invite link opened by a guest, `/clubs`),
 *  or null: the page goes back there once signed up (the codes kept) or signed in. */
const BACK = /^\/(t\/[A-Za-z0-9_-]{1,64}|clubs|club\/[A-Za-z0-9_-]{1,24}(\/join)?)$/;
function backTo() {
  const back = new URLSearchParams(location.search).get('back');
  return back && BACK.test(back) ? back : null;
}

async function signIn() {
  if (!supported()) return;
  say(t('account.wait_passkey'));
  const begun = await api('/api/account/signin/begin', {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
  const got = await api('/api/account/signin/finish', { challenge: begun.challenge, credential: usedJSON(cred) });
  await refresh();
  say(t('account.welcome', { name: got.account.name }));
  if (backTo()) location.assign(backTo());
}

async function recover() {
  const got = await api('/api/account/recover', { name: $('recover-name').value, code: $('recover-code').value });
  $('recover-code').value = '';
  recovered = true;
  await refresh();
  say(tn('account.recovered', got.codes_left, { count: got.codes_left }));
  $('keys-add').focus();
}

async function linkDevice() {
  if (!supported()) return;
  const code = $('link-code').value;
  say(t('account.wait_passkey'));
  const got = await makePasskey('/api/account/link/begin', { code }, '/api/account/link/finish');
  history.replaceState(null, '', '/account');
  $('link-box').hidden = true;
  await refresh();
  say(t('account.linked', { name: got.account.name }));
}

async function addHere() {
  if (!supported()) return;
  say(t('account.wait_passkey'));
  await makePasskey('/api/account/passkeys/begin', {}, '/api/account/passkeys/finish');
  recovered = false;
  await showKeys();
  say(t('account.keys.added'));
}

// ----- recovery codes ----------------------------------------------------------------------

function showCodes(list) {
  codes = list || [];
  $('codes').replaceChildren(...codes.map((c) => h('li', {}, h('bdi', { dir: 'ltr', text: c }))));
  $('codes-box').hidden = codes.length === 0;
  if (codes.length) $('codes-h').focus();
}

async function newCodes() {
  if (!window.confirm(t('account.rcodes.confirm'))) return;
  const got = await api('/api/account/recovery/new', {});
  showCodes(got.recovery_codes);
  await showKeys();
}

// ----- signed in ---------------------------------------------------------------------------

async function showKeys() {
  const got = await api('/api/account/passkeys');
  $('rcodes-left').textContent = tn('account.rcodes.left', got.codes_left, { count: got.codes_left });
  $('keys-add-note').hidden = !recovered;
  $('keys').replaceChildren(...got.passkeys.map((p, i) => {
    const field = h('input', { type: 'text', maxlength: '40', id: `key-${i}`, value: p.label });
    const save = h('button', { type: 'button', text: t('account.keys.rename') });
    const remove = h('button', { type: 'button', text: t('account.keys.remove') });
    save.setAttribute('aria-label', `${t('account.keys.rename')}: ${p.label}`);
    remove.setAttribute('aria-label', `${t('account.keys.remove')}: ${p.label}`);
    save.addEventListener('click', () => busy(save, async () => {
      await api('/api/account/passkeys/rename', { id: p.id, label: field.value });
      await showKeys();
      say(t('account.keys.renamed'));
    }));
    remove.addEventListener('click', () => busy(remove, async () => {
      if (!window.confirm(t('account.keys.remove_confirm', { label: p.label }))) return;
      await api('/api/account/passkeys/remove', { id: p.id });
      await showKeys();
      say(t('account.keys.removed'));
    }));
    return h('li', { dataset: { id: p.id } },
      h('label', { class: 'field', for: `key-${i}` }, h('span', { text: t('account.keys.label') }), field),
      h('span', { class: 'muted' }, t('account.keys.created', { when: when(p.created) }), ' · ',
        t('account.keys.used', { when: when(p.last_used) })),
      h('span', { class: 'row' }, save, remove));
  }));
}

async function showSessions() {
  const got = await api('/api/account/sessions');
  const others = got.sessions.filter((s) => !s.current);
  $('sessions-end').hidden = others.length === 0;
  $('sessions').replaceChildren(...got.sessions.map((s) => {
    const what = s.current ? t('account.sessions.this') : (s.agent || t('account.sessions.device'));
    const end = s.current ? null : h('button', { type: 'button', text: t('account.sessions.end') });
    if (end) {
      end.setAttribute('aria-label', `${t('account.sessions.end')}: ${what}`);
      end.addEventListener('click', () => busy(end, async () => {
        await api('/api/account/sessions/end', { id: s.id });
        await showSessions();
      }));
    }
    return h('li', {}, h('bdi', { text: what }), ' ',
      h('span', { class: 'muted', text: t('account.sessions.seen', { when: when(s.last_seen) }) }), end);
  }));
}

async function endOthers() {
  const got = await api('/api/account/sessions');
  for (const s of got.sessions.filter((x) => !x.current)) {
    await api('/api/account/sessions/end', { id: s.id });
  }
  await showSessions();
  say(t('account.sessions.ended'));
}

async function newDevice() {
  const got = await api('/api/account/link/new', {});
  $('device-code').textContent = got.code;
  $('device-link').value = absolute(got.url);
  $('device-made').hidden = false;
}

async function signOut() {
  await api('/api/account/signout', {});
  showCodes([]);
  await refresh();
  say(t('account.signed_out'));
}

async function refresh() {
  const got = await api('/api/account');
  me = got.account;
  $('guest').hidden = Boolean(me);
  $('signed').hidden = !me;
  if (!me) return;
  $('me-name').textContent = me.name;
  $('privacy').checked = Boolean(me.hidden);
  $('device-made').hidden = true;
  await Promise.all([showKeys(), showSessions()]);
}

async function retranslate() {
  if (me) await Promise.all([showKeys(), showSessions()]);
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), retranslate);
  // a server on this machine opened by its address of numbers (as `forties serve` prints
  // it): WebAuthn refuses an IP address, so the page offers the same page at localhost
  if (['127.0.0.1', '[::1]', '::1'].includes(location.hostname)) {
    const here = new URL(location.href);
    here.hostname = 'localhost';
    $('by-name-link').href = here.href;
    $('by-name-link').textContent = here.href;
    $('by-name').hidden = false;
  }
  if (backTo()) {
    $('home-link').href = backTo();
    const id = backTo().startsWith('/t/') ? 'account.back_table' : 'account.back_club';
    $('home-link').dataset.i18n = id;
    $('home-link').textContent = t(id);
  }
  const linking = location.pathname === '/account/link';
  if (linking) {
    $('link-box').hidden = false;
    $('link-code').value = decodeURIComponent(location.hash.slice(1));
  }
  $('signup').addEventListener('click', () => busy($('signup'), signUp));
  $('signin').addEventListener('click', () => busy($('signin'), signIn));
  $('recover').addEventListener('click', () => busy($('recover'), recover));
  $('link-go').addEventListener('click', () => busy($('link-go'), linkDevice));
  $('keys-add').addEventListener('click', () => busy($('keys-add'), addHere));
  $('device-new').addEventListener('click', () => busy($('device-new'), newDevice));
  $('device-copy').addEventListener('click', () => copyText($('device-link').value, $('device-link')));
  $('sessions-end').addEventListener('click', () => busy($('sessions-end'), endOthers));
  $('rcodes-new').addEventListener('click', () => busy($('rcodes-new'), newCodes));
  $('signout').addEventListener('click', () => busy($('signout'), signOut));
  $('codes-print').addEventListener('click', () => window.print());
  $('codes-done').addEventListener('click', () => {
    showCodes([]);
    if (backTo() && me) location.assign(backTo());
    else $('me-h').focus();
  });
  $('privacy').addEventListener('change', () => busy($('privacy'), async () => {
    await api('/api/account/privacy', { hidden: $('privacy').checked });
    say(t($('privacy').checked ? 'account.privacy.hidden' : 'account.privacy.shown'));
  }));
  try {
    await refresh();
  } catch (e) {
    fail(e);
  }
  if (linking && me) say(t('account.link.signed_in'));
  document.body.dataset.ready = '1';
}

main();
