// A player's page: the name, since when, the ratings per game (provisional ones said so)
// with their history drawn (and as a table), the statistics per game and per partnership,
// and the recent games unless the player hides them from others.
import { t, loadLanguage, preferredLanguage, languagePicker } from './i18n.js';
import { h } from './util.js';
import { familyName, dateWords, personLink, gameItem, statsTable, ratingChart, refusalWords } from './history.js';
import { regularActions, draw as drawFollow } from './follow.js';
import './theme.js';

const $ = (id) => document.getElementById(id);
let data = null;

function ratingWords(r) {
  return r.provisional ? t('history.rating_provisional', { rating: r.rating, games: r.games })
    : t('history.rating_games', { rating: r.rating, games: r.games });
}

function draw() {
  if (!data) return;
  const p = data.player;
  $('name').textContent = p.name;
  document.title = t('history.player_page', { name: p.name });
  $('since').textContent = t('history.since', { date: dateWords(p.since) });
  $('my-games').hidden = !p.yours;
  $('ratings-box').hidden = false;
  $('ratings').replaceChildren(...(data.ratings.length ? data.ratings.map((r) => h('li',
    { dataset: { family: r.family, provisional: String(r.provisional) } },
    h('strong', { text: `${familyName(r.family)}: ` }), ratingWords(r)))
    : [h('li', { class: 'muted', text: t('history.no_ratings') })]));
  $('charts').replaceChildren(...data.ratings.filter((r) => (data.history[r.family] || []).length)
    .map((r) => h('div', null, h('h3', { text: t('history.chart_title', { game: familyName(r.family) }) }),
      ratingChart(r.family, data.history[r.family]))));
  $('stats-box').hidden = false;
  $('stats').replaceChildren(...(data.stats.length ? data.stats.flatMap((s) => [
    h('h3', { text: familyName(s.family) }),
    ...statsTable(s.stats, t('history.stats_of', { game: familyName(s.family) }), s.family === 'forty-one')])
    : [h('p', { class: 'muted', text: t('history.no_stats') })]));
  $('pairs-box').hidden = data.partnerships === null;
  if (data.partnerships !== null) {
    $('pairs').replaceChildren(...(data.partnerships.length ? data.partnerships.flatMap((x) => {
      const who = x.partner.former ? t('history.former') : x.partner.name;
      const what = t('history.pair_of', { game: familyName(x.family), partner: who });
      return [h('h3', null, `${familyName(x.family)}: `, t('history.with'), ' ', personLink(x.partner)),
        x.rating ? h('p', { text: ratingWords(x.rating) }) : null,
        ...(x.stats ? statsTable(x.stats, what, x.family === 'forty-one') : [])].filter(Boolean);
    }) : [h('p', { class: 'muted', text: t('history.no_partnerships') })]));
  }
  $('recent-box').hidden = false;
  const hidden = data.games === null;
  $('hidden-note').hidden = !hidden;
  $('own-hidden').hidden = !(p.yours && p.hidden);
  $('games').replaceChildren(...(hidden ? [] : data.games.map((g) => gameItem(g))));
  $('empty').hidden = hidden || data.games.length > 0;
}

async function main() {
  await loadLanguage(preferredLanguage());
  await languagePicker($('lang'), () => { draw(); drawFollow(); });
  const id = decodeURIComponent(location.pathname.split('/')[2] || '');
  try {
    const r = await fetch(`/api/history/players/${encodeURIComponent(id)}`);
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new Error(refusalWords(r.status, body));
    data = body;
    draw();
    await regularActions($('regular-actions'), data.player);
  } catch (e) {
    $('error').textContent = e instanceof TypeError ? t('error.network') : e.message;
  }
  document.body.dataset.ready = '1';
}

main();
