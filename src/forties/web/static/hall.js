// The hall's pages share this: messages in the reader's language, the evening's key from
// the link, requests that answer in one line, and the pieces every screen draws.
import { pluralForm } from "./i18n.js";

const LANGS = ["en", "fr", "ar"];
let messages = {};

// ?lang= in the address (kept, as the picker keeps its choice, for the pages that follow:
// a player's table), the language chosen before, or the browser's.
export function pickLanguage() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && LANGS.includes(q)) {
    try { localStorage.setItem("forties.lang", q); } catch (e) { /* this page only */ }
  }
  const stored = localStorage.getItem("forties.lang");
  const nav = (navigator.language || "en").slice(0, 2);
  return [q, stored, nav, "en"].find((x) => x && LANGS.includes(x));
}

export const lang = pickLanguage();

// t(id, english, vars): the catalogue's text for id ("hall.something"), else the English.
export function t(id, english, vars = {}) {
  const text = messages[id] || english;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

// tn(id, count, [english one, english other], vars): t() for a sentence with a count in it,
// "id.one" where the reader's language says the count with the singular (i18n.js pluralForm).
export function tn(id, count, english, vars = {}) {
  if (!(id in messages)) return t(id, english[pluralForm("en", count) === "one" ? 0 : 1], vars);
  const one = pluralForm(lang, count) === "one" && `${id}.one` in messages;
  return t(one ? `${id}.one` : id, english[1], vars);
}

export async function loadMessages() {
  try {
    const r = await fetch(`/i18n/${lang}.json`);
    if (r.ok) {
      const data = await r.json();
      messages = data.messages || {};
      document.documentElement.dir = data.dir || "ltr";
    }
  } catch (e) { /* English it is */ }
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n, node.textContent.trim());
  }
  for (const node of document.querySelectorAll("[data-i18n-title]")) {
    node.title = t(node.dataset.i18nTitle, node.title);
  }
}

export function languagePicker(into) {
  const sel = el("select", { "aria-label": t("common.language", "Language"), id: "lang" },
    ...[["en", "English"], ["fr", "Français"], ["ar", "العربية"]].map(([code, name]) =>
      el("option", { value: code, selected: code === lang ? "" : null }, name)));
  sel.addEventListener("change", () => {
    localStorage.setItem("forties.lang", sel.value);
    const url = new URL(location.href);
    url.searchParams.set("lang", sel.value);
    location.replace(url.toString());
  });
  into.append(sel);
}

export function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
}

export function evening() {
  const parts = location.pathname.split("/");
  return decodeURIComponent(parts[2] || "");
}

// The key in the link's fragment (#key=...) is kept for this evening and taken out of the
// address bar, so that a projector or a screenshot never shows it.
export function takeKey(role) {
  const name = `hall-${role}-${evening()}`;
  const m = location.hash.match(/key=([A-Za-z0-9_-]+)/);
  if (m) {
    localStorage.setItem(name, m[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(name);
}

// A page's forms answer from the first moment. A submit that comes before the page has
// started (its words, its first answers from the server) waits for it, instead of
// reloading the page with what was typed in the address and losing it.
let begin = null;
const begun = new Promise((resolve) => { begin = resolve; });

export function started() { begin(); }

export function onSubmit(form, handler) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await begun;
    await handler();
  });
}

export async function post(path, body) {
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                            body: JSON.stringify(body) });
  } catch (e) {
    throw new Error(t("hall.offline", "No answer from the server: check the connection and try again."));
  }
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) {
    const e = new Error(data.error || `HTTP ${r.status}`);
    e.code = data.code;  // (a word the page may say in its reader's language instead)
    throw e;
  }
  return data;
}

// Calls draw(board) now and whenever the evening changes (asks every two seconds).
export function watch(draw, every = 2000) {
  let version = null;
  let timer = null;
  let running = false;
  let again = false;
  async function tick() {
    clearTimeout(timer);
    if (running) { again = true; return; }
    running = true;
    try {
      const q = version === null ? "" : `?since=${version}`;
      const r = await fetch(`/api/hall/${encodeURIComponent(evening())}${q}`);
      const data = await r.json();
      if (!r.ok) draw(null, data.error);
      else if (!data.same) { version = data.version; draw(data); }
    } catch (e) { /* try again at the next tick */ }
    running = false;
    if (again) { again = false; version = null; tick(); return; }
    timer = setTimeout(tick, every);
  }
  tick();
  return { now() { version = null; tick(); } };
}

export function phaseText(b) {
  const s = b.status;
  if (s.phase === "registration") return tn("hall.phase.registration", b.couples.length, ["Registration: {n} couple", "Registration: {n} couples"], { n: b.couples.length });
  if (s.phase === "playing") return t("hall.phase.playing", "Game {g} of {n}", { g: s.game, n: s.games });
  if (s.phase === "between games") return t("hall.phase.between", "Game {g} of {n} is over", { g: s.game, n: s.games });
  if (s.phase === "prizes") return t("hall.phase.prizes", "The prizes");
  return t("hall.phase.finished", "The evening is over");
}

export function coupleName(b, n) {
  const c = b.couples.find((x) => x.couple === n);
  return c ? `${c.names[0]} & ${c.names[1]}` : "";
}

export function ordinal(n) {
  if (lang === "fr") return n === 1 ? "1er" : `${n}e`;
  if (lang === "ar") return String(n);
  const s = (n % 100 >= 11 && n % 100 <= 13) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${s}`;
}

export function prizeName(p) {
  if (p === 0) return t("hall.booby", "Booby prize");
  return t("hall.prize", "{ordinal} prize", { ordinal: ordinal(p) });
}

export function moveLine(m, game) {
  if (m.to === null) return t("hall.move.out", "Couple {c} sits out game {g}", { c: m.couple, g: game });
  if (m.stays) return t("hall.move.stays", "Couple {c} stays at table {t}", { c: m.couple, t: m.to });
  const line = t("hall.move.to", "Couple {c} to table {t}", { c: m.couple, t: m.to });
  return m.deals_first ? `${line} (${t("hall.move.deals", "deals first")})` : line;
}

export function drawMoves(b) {
  if (!b.current || !b.moves.length) return el("p", { class: "muted" }, t("hall.moves.none", "No moves yet."));
  const g = b.current.game;
  const go = b.moves.filter((m) => m.to !== null && !m.stays);
  const out = b.moves.filter((m) => m.to === null);
  const stay = b.moves.filter((m) => m.stays);
  return el("div", {},
    el("h2", {}, t("hall.moves.title", "Game {g}: moves", { g })),
    el("ul", { class: "moves", id: "moves" }, [...go, ...out, ...stay].map((m) => el("li", {}, moveLine(m, g)))));
}

export function drawStandings(b, { names = true } = {}) {
  const dup = b.settings.duplicate;
  // a box that scrolls sideways where a narrow screen cannot hold the table: it can be
  // reached and scrolled with the keyboard, and says so when it holds more than it shows
  const label = t("hall.standings.title", "Standings");
  const more = el("p", { class: "muted scroll-more", hidden: "" },
    t("hall.standings.more", "Swipe the table sideways to see the rest."));
  const box = el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": label }, el("table", { id: "standings" },
    el("thead", {}, el("tr", {},
      el("th", { class: "num" }, t("hall.place", "Place")),
      el("th", { class: "num" }, t("hall.couple", "Couple")),
      names ? el("th", {}, t("hall.names", "Names")) : null,
      el("th", { class: "num" }, dup ? t("hall.matchpoints", "Matchpoints") : t("hall.games", "Games")))),
    el("tbody", {}, b.standings.map((s) => el("tr", { "data-couple": s.couple },
      el("td", { class: "num" }, s.place),
      el("td", { class: "num" }, s.couple),
      names ? el("td", {}, `${s.names[0]} & ${s.names[1]}`) : null,
      el("td", { class: "num" }, s.score))))));
  new ResizeObserver(() => { more.hidden = box.scrollWidth <= box.clientWidth + 1; }).observe(box);
  return el("div", {}, box, more);
}

function howText(how) {
  return { outright: t("hall.how.outright", "outright"), split: t("hall.how.split", "split"),
           cut: t("hall.how.cut", "by the cut of the deck"), "play-off": t("hall.how.playoff", "by a play-off") }[how] || how;
}

function choiceText(c) {
  return { split: t("hall.choice.split", "split"), cut: t("hall.choice.cut", "cut the deck"),
           "play-off": t("hall.choice.playoff", "play off") }[c] || c;
}

// The prizes, each tie worked through: the votes, the cut's cards, the play-off games.
// ``act(contest, event)`` (the director's page) adds the buttons for the next step.
export function drawPrizes(b, act = null) {
  const box = el("div", { id: "prizes" });
  if (!["prizes", "finished"].includes(b.status.phase)) return box;
  box.append(el("h2", {}, t("hall.prizes.title", "Prizes")));
  box.append(el("ul", { id: "awards" }, b.awards.map((a) => el("li", { class: "big" },
    `${prizeName(a.prize)}: `, a.couples.map((c) => `${t("hall.couple.n", "Couple {n}", { n: c })} (${coupleName(b, c)})`).join(", "),
    a.how !== "outright" ? ` — ${howText(a.how)}` : ""))));
  for (const ct of b.contests) box.append(drawContest(b, ct, act));
  if (b.cookie_jar) {
    const j = b.cookie_jar;
    box.append(el("div", { id: "cookie-jar" }, el("h2", {}, t("hall.jar.title", "Cookie jar")),
      el("p", {}, t("hall.jar.games", "Games drawn: {games}", { games: j.games.join(", ") })),
      el("p", { class: "big" }, j.winners.length
        ? t("hall.jar.won", "Won by: {who}", { who: j.winners.map((c) => t("hall.couple.n", "Couple {n}", { n: c })).join(", ") })
        : t("hall.jar.none", "Nobody won every drawn game: the jar carries over (best: {n})", { n: j.best }))));
  }
  const d = b.draws;
  box.append(el("details", { id: "draws" }, el("summary", {}, t("hall.draws.title", "Check the draws")),
    el("p", {}, t("hall.draws.key", "Draw key (SHA-256), shown from the start: {digest}", { digest: d.seed_sha256 })),
    "seed" in d ? el("p", {}, t("hall.draws.seed", "The evening's seed: {seed}", { seed: d.seed_text ?? String(d.seed) })) : null,
    el("p", { class: "muted", id: "draw-method" }, t("hall.draws.method", d.method))));
  return box;
}

function drawContest(b, ct, act) {
  const prizes = ct.prizes.map(prizeName).join(", ");
  const who = ct.couples.map((c) => t("hall.couple.n", "Couple {n}", { n: c })).join(", ");
  const box = el("div", { class: "contest", "data-contest": ct.key },
    el("h3", {}, t("hall.tie.title", "Tie for {prizes}: {who} on {score}", { prizes, who, score: ct.score })));
  if (ct.method === null && Object.keys(ct.votes).length === 0 && !act) {
    box.append(el("p", {}, t("hall.tie.voting", "Each couple says: split, cut the deck, or play off.")));
  }
  for (const [c, v] of Object.entries(ct.votes)) {
    box.append(el("p", { class: "vote" }, t("hall.tie.voted", "Couple {c} says: {choice}", { c, choice: choiceText(v) })));
  }
  if (ct.method) box.append(el("p", { class: "method" }, t("hall.tie.method", "Decided by: {m}", { m: choiceText(ct.method) })));
  for (const [c, plays] of Object.entries(ct.answers)) {
    box.append(el("p", {}, plays ? t("hall.tie.plays", "Couple {c} plays off", { c }) : t("hall.tie.forfeits", "Couple {c} forfeits", { c })));
  }
  for (const [name, cut] of [["cut", ct.cut], ["forfeit_cut", ct.forfeit_cut]]) {
    if (!cut) continue;
    box.append(el("div", { class: "cut" }, el("p", {}, name === "cut"
      ? t("hall.cut.title", "The cut of the deck (low card wins, ace low):")
      : t("hall.cut.forfeit", "The couples who forfeit cut for the places left:")),
      el("p", { class: "muted draw-name" }, t("hall.cut.draw", "Draw name (to check it): {name}", { name: cut.draw })),
      el("ul", { class: "cards" }, Object.entries(cut.cards).map(([c, cards]) => el("li", {},
        t("hall.cut.drew", "Couple {c} drew", { c }), " ", cards.map((x) => el("span", {}, x)))))));
  }
  if (ct.play_off) {
    const po = ct.play_off;
    box.append(el("ul", { class: "playoff" },
      po.games.map((g) => el("li", {}, t("hall.po.game", "Couple {a} v couple {b}: couple {w} won", { a: g.couples[0], b: g.couples[1], w: g.winner }))),
      po.pending.map(([a2, b2]) => el("li", { class: "pending" }, t("hall.po.pending", "To play: couple {a} v couple {b}", { a: a2, b: b2 }),
        act ? [" ", el("button", { onclick: () => act({ type: "play-off", contest: ct.key, couple: a2 }) }, t("hall.po.won", "Couple {c} won", { c: a2 })),
                    el("button", { onclick: () => act({ type: "play-off", contest: ct.key, couple: b2 }) }, t("hall.po.won", "Couple {c} won", { c: b2 }))] : null))));
  }
  if (ct.shared) box.append(el("p", { class: "big" }, t("hall.tie.shared", "The prizes are split among {who}", { who })));
  else if (ct.order) box.append(el("p", { class: "big" }, t("hall.tie.order", "Order: {order}", { order: ct.order.map((c) => t("hall.couple.n", "Couple {n}", { n: c })).join(", ") })));
  if (act) {
    for (const c of ct.to_vote) {
      box.append(el("p", { class: "ask" }, t("hall.tie.ask", "Couple {c}:", { c }), " ",
        ["split", "cut", "play-off"].map((choice) => el("button", { "data-vote": `${c}-${choice}`,
          onclick: () => act({ type: "vote", contest: ct.key, couple: c, choice }) }, choiceText(choice)))));
    }
    for (const c of ct.to_answer) {
      box.append(el("p", { class: "ask" }, t("hall.tie.answer", "Couple {c}, a play-off was asked for:", { c }), " ",
        el("button", { onclick: () => act({ type: "answer", contest: ct.key, couple: c, plays: true }) }, t("hall.tie.play", "We play")),
        el("button", { class: "warn", onclick: () => act({ type: "answer", contest: ct.key, couple: c, plays: false }) }, t("hall.tie.forfeit", "We forfeit"))));
    }
    if (ct.method === "cut" && !ct.cut) {
      box.append(el("button", { class: "main", id: `cut-${ct.key}`, onclick: () => act({ type: "cut", contest: ct.key }) },
        t("hall.cut.do", "Cut the deck")));
    }
  }
  return box;
}

// A duplicate evening's results carry both couples' points: two boxes, and their values.
export function pointsBoxes(a, b) {
  const box = (c) => el("label", {}, t("hall.points.of", "Points of couple {c}", { c }), " ",
    el("input", { type: "number", inputmode: "numeric", "data-points": c, size: "5", min: "-10000", max: "10000" }));
  return el("p", { class: "points" }, box(a), " ", box(b));
}

export function readPoints(root, a, b) {
  const get = (c) => root.querySelector(`input[data-points='${c}']`).value;
  if (get(a) === "" || get(b) === "") throw new Error(t("hall.points.missing", "A duplicate evening needs both couples' points."));
  return { [a]: Number(get(a)), [b]: Number(get(b)) };
}

export async function boot() {
  await loadMessages();
  const h = document.querySelector("header");
  if (h) languagePicker(h);
}
