// The account page's "Your data" section (web.account_data): the download is a plain link
// (the server answers it as a file); deleting the account asks for its name typed again,
// then every device is signed out and the page shows the signed-out part.
import { t } from './i18n.js';
import { api, errorText } from './util.js';

const $ = (id) => document.getElementById(id);

function refusal(e) {
  if (e && e.code === 'confirm') return t('account.data.err.confirm');
  if (e && e.code === 'in_play') return t('account.data.err.in_play');
  return errorText(e);
}

async function deleteAccount() {
  const button = $('data-delete');
  if (button.getAttribute('aria-disabled') === 'true') return;
  $('data-error').textContent = '';
  const typed = $('data-confirm').value.trim();
  if (!typed) {
    $('data-error').textContent = t('account.data.err.confirm');
    $('data-confirm').focus();
    return;
  }
  button.setAttribute('aria-disabled', 'true');
  try {
    await api('/api/account/delete', { confirm: typed });
  } catch (e) {
    $('data-error').textContent = refusal(e);
    return;
  } finally {
    button.removeAttribute('aria-disabled');
  }
  $('data-confirm').value = '';
  $('signed').hidden = true;
  $('guest').hidden = false;
  $('error').textContent = '';
  $('status').textContent = t('account.data.deleted');
}

$('data-delete').addEventListener('click', deleteAccount);
$('data-confirm').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') deleteAccount();
});
