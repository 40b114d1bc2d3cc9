// A club's season: its standings for phones, and for the projector (/projector or
// ?projector=1: big type, no controls). The page asks for the season again every so often
// (an unchanged season is answered in a few bytes).
import { boot, el, lang, ordinal, t, tn } from "./hall.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/");
const club = decodeURIComponent(parts[2] || "");
const sid = decodeURIComponent(parts[4] || "");
const projector = parts[5] === "projector" || new URLSearchParams(location.search).get("projector") === "1";
const api = `/api/clubs/${encodeURIComponent(club)}/seasons/${encodeURIComponent(sid)}`;

if (projector) document.body.classList.add("projector");
await boot();

function day(iso) {
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(lang, { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });
}

function names(row) { return `${row.names[0]} & ${row.names[1]}`; }

function ruleText(s) {
  const r = s.rule;
  const counted = r.best === null ? t("season.rule.all", "Every evening counts.")
    : tn("season.rule.best", r.best, ["Each couple's best evening counts.", "Each couple's best {n} evenings count."], { n: r.best });
  const ties = r.prizes === 0 ? ""
    : r.ties === "cut" ? tn("season.rule.cut", r.prizes, ["A tie for first place is settled by a cut of the deck once the season is over.", "Ties for the first {n} places are settled by a cut of the deck once the season is over."], { n: r.prizes })
      : tn("season.rule.split", r.prizes, ["Couples tied for first place share it.", "Couples tied for one of the first {n} places share it."], { n: r.prizes });
  return `${counted} ${ties}`.trim();
}

function prizeText(p, dates) {
  const what = p.prize === 0 ? t("hall.booby", "Booby prize") : t("hall.prize", "{ordinal} prize", { ordinal: ordinal(p.prize) });
  return `${what} (${dates[p.evening]})`;
}

function drawStandings(s, dates) {
  const best = s.rule.best !== null;
  const rows = s.standings.map((r) => {
    const sub = [tn("season.row.evenings", r.evenings, ["{n} evening", "{n} evenings"], { n: r.evenings })];
    if (best) sub.push(tn("season.row.games", r.games, ["{n} game in all", "{n} games in all"], { n: r.games }));
    const dropped = r.nights.filter((x) => !x.counted).map((x) => dates[x.evening]);
    if (dropped.length) sub.push(t("season.row.dropped", "not counted: {dates}", { dates: dropped.join(", ") }));
    if (r.prizes.length) sub.push(r.prizes.map((p) => prizeText(p, dates)).join(", "));
    return el("tr", { "data-couple": r.couple },
      el("td", { class: "num" }, r.place),
      el("td", { class: "names" }, names(r), el("span", { class: "sub" }, sub.join(" · "))),
      el("td", { class: "num total" }, r.total));
  });
  if (!rows.length) return el("p", { class: "muted", id: "no-standings" }, t("season.none", "No evening of the season is over yet."));
  return el("table", { id: "season-standings" },
    el("thead", {}, el("tr", {},
      el("th", { class: "num" }, t("hall.place", "Place")),
      el("th", {}, t("season.couple", "Couple")),
      el("th", { class: "num" }, best ? t("season.total.best", "Games (best evenings)") : t("hall.games", "Games")))),
    el("tbody", {}, rows));
}

function drawTies(s) {
  const box = el("div", { id: "ties" });
  if (!s.ties.length) return box;
  const who = (c) => names(s.standings.find((r) => r.couple === c));
  box.append(el("h2", {}, t("season.ties", "Ties")));
  for (const tie of s.ties) {
    const places = `${tie.places[0]}–${tie.places[tie.places.length - 1]}`;
    const item = el("div", { class: "tie", "data-tie": tie.key },
      el("h3", {}, t("season.tie.title", "Level for places {places}: {who}", { places, who: tie.couples.map(who).join(", ") })));
    if (tie.method === "level") {
      item.append(el("p", {}, s.rule.ties === "cut"
        ? t("season.tie.later.cut", "The deck will be cut once the season is over.")
        : t("season.tie.later.split", "They will share the place once the season is over.")));
    } else if (tie.method === "split") {
      item.append(el("p", { class: "big" }, t("season.tie.split", "They share the place.")));
    } else if (tie.cut) {
      item.append(el("p", {}, t("hall.cut.title", "The cut of the deck (low card wins, ace low):")),
        el("p", { class: "muted draw-name" }, t("hall.cut.draw", "Draw name (to check it): {name}", { name: tie.cut.draw })),
        el("ul", { class: "cards" }, Object.entries(tie.cut.cards).map(([c, cards]) => el("li", {},
          t("season.tie.drew", "{who} drew", { who: who(Number(c)) }), " ", cards.map((x) => el("span", {}, x))))));
    }
    box.append(item);
  }
  if (s.draws) {
    box.append(el("details", { id: "draws" }, el("summary", {}, t("hall.draws.title", "Check the draws")),
      el("p", {}, t("season.draws.number", "The season's number: {number}", { number: s.draws.number })),
      el("p", { class: "muted" }, t("season.draws.how", s.draws.how)),
      el("p", { class: "muted", id: "draw-method" }, t("hall.draws.method", s.draws.method))));
  }
  return box;
}

function stateText(e) {
  if (e.state === "over") return t("season.evening.over", "counted");
  if (e.state === "playing") return t("season.evening.playing", "being played: counted once it is over");
  return t("season.evening.waiting", "not started");
}

function drawJar(s, dates, who) {
  const box = el("div", { id: "jar" });
  if (!s.cookie_jar.length) return box;
  box.append(el("h2", {}, t("hall.jar.title", "Cookie jar")));
  box.append(el("ul", { class: "jar" }, s.cookie_jar.map((j) => el("li", {},
    `${dates[j.evening]}${t("colon", ": ")}`, t("hall.jar.games", "Games drawn: {games}", { games: j.games.join(", ") }), " — ",
    j.winners.length ? t("hall.jar.won", "Won by: {who}", { who: j.winners.map(who).join(", ") })
      : t("season.jar.carried", "nobody won it: it carried over"),
    j.carried ? ` (${tn("season.jar.after", j.carried, ["after carrying over from {n} evening", "after carrying over from {n} evenings"], { n: j.carried })})` : ""))));
  return box;
}

function draw(s) {
  $("error").textContent = "";
  const title = s.season.name;
  document.title = title;
  $("title").textContent = title;
  $("phase").textContent = s.over ? t("season.phase.over", "The season is over")
    : s.closed ? t("season.phase.last", "The season's last evenings are not over yet")
      : t("season.phase.on", "The season is on");
  $("about").textContent = t("season.about", "{club}: from {starts} to {ends}", { club: s.club.name, starts: day(s.season.starts), ends: day(s.season.ends) });
  $("rule").textContent = ruleText(s);
  const dates = {};
  for (const e of s.evenings) dates[e.evening] = day(e.date);
  const who = (c) => { const r = s.standings.find((x) => x.couple === c); return r ? names(r) : String(c); };
  $("standings-table").replaceChildren(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("season.standings", "Standings") }, drawStandings(s, dates)));
  $("ties-box").replaceChildren(drawTies(s));
  $("evenings").replaceChildren(...s.evenings.map((e) => el("li", { "data-state": e.state },
    projector ? `${dates[e.evening]} ${e.title}` : el("a", { href: `/hall/${encodeURIComponent(e.id)}` }, `${dates[e.evening]} ${e.title}`),
    ` — ${stateText(e)}`)));
  if (s.missing) $("evenings").append(el("li", { class: "muted" }, tn("season.missing", s.missing, ["{n} evening of the calendar could not be read.", "{n} evenings of the calendar could not be read."], { n: s.missing })));
  if (!s.evenings.length) $("evenings").append(el("li", { class: "muted" }, t("season.evenings.none", "No evening of the club's calendar falls in the season yet.")));
  $("jar-box").replaceChildren(drawJar(s, dates, who));
}

$("projector-link").href = `/club/${encodeURIComponent(club)}/season/${encodeURIComponent(sid)}/projector`;
$("csv-link").href = `${api}/export/csv`;
$("json-link").href = `${api}/export/json`;
$("club-link").href = `/club/${encodeURIComponent(club)}/seasons`;

let version = null;
async function tick() {
  try {
    const r = await fetch(version === null ? api : `${api}?since=${encodeURIComponent(version)}`);
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) $("error").textContent = data.error || `HTTP ${r.status}`;
    else if (!data.same) { version = data.version; draw(data); }
    else $("error").textContent = "";  // (a failure passed: the screen stays up all evening)
  } catch (e) { /* asked again at the next tick */ }
  setTimeout(tick, projector ? 10000 : 30000);
}
tick();
