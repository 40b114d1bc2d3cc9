// The duplicate sessions' pages share this (beside hall.js: the words, the keys in the
// link, requests that answer in one line): the session read every few seconds, the
// partnerships' names, the standings and a board's results drawn the same on every page.
import { el, t } from "./hall.js";

export function session() {
  return decodeURIComponent(location.pathname.split("/")[2] || "");
}

export async function getJSON(path) {
  let r;
  try { r = await fetch(path); } catch (e) {
    throw new Error(t("hall.offline", "No answer from the server: check the connection and try again."));
  }
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

// Calls draw(view) now and whenever the session changes (asks every `every` ms).
export function watchSession(draw, every = 3000) {
  let version = null;
  let timer = null;
  async function tick() {
    clearTimeout(timer);
    try {
      const q = version === null ? "" : `?since=${version}`;
      const v = await getJSON(`/api/dup/${encodeURIComponent(session())}${q}`);
      if (!v.same) { version = v.version; draw(v); }
    } catch (e) { draw(null, e.message); }
    timer = setTimeout(tick, every);
  }
  tick();
  return { now() { version = null; tick(); } };
}

export function gameName(g) {
  return { "merrimack-valley": t("dup.game.mv", "Merrimack Valley"),
           "auction-45": t("dup.game.a45", "Auction 45"),
           "forty-one": t("dup.game.41", "Forty One") }[g] || g;
}

export function pairName(v, n) {
  const p = v.partnerships.find((x) => x.number === n);
  if (!p) return String(n);
  const mark = p.computer ? ` (${t("dup.computers", "computer players")})`
    : p.one_computer ? ` (${t("dup.one_computer", "one computer seat")})` : "";
  return `${p.name}${mark}`;
}

export function pairLabel(v, n) {
  return `${t("dup.pair.n", "Pair {n}", { n })} — ${pairName(v, n)}`;
}

export function phaseText(v) {
  if (v.status === "over") return t("dup.phase.over", "The session is over");
  return t("dup.phase.round", "Round {r} of {n}", { r: v.round, n: v.rounds.length });
}

// A percentage as the page's language writes it: "50.00%", in French "50,00 %" (Arabic
// keeps the digits 0-9 of the page's other numbers, and the English form)
function percent(x) {
  if (x === null || x === undefined) return "—";
  const lang = document.documentElement.lang === "fr" ? "fr" : "en";
  return new Intl.NumberFormat(lang, { style: "percent", minimumFractionDigits: 2,
                                       maximumFractionDigits: 2 }).format(x / 100);
}

export function drawStandings(v) {
  const label = t("dup.standings", "Standings");
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": label },
    el("table", { id: "standings" },
      el("caption", {}, v.complete.length
        ? t("dup.standings.after", "After {n} of {total} boards", { n: v.complete.length, total: v.boards })
        : t("dup.standings.none", "No board has been played at every table yet.")),
      el("thead", {}, el("tr", {},
        el("th", { class: "num" }, t("dup.rank", "Rank")),
        el("th", {}, t("dup.pair", "Pair")),
        el("th", { class: "num" }, t("dup.boards", "Boards")),
        el("th", { class: "num" }, t("dup.matchpoints", "Matchpoints")))),
      el("tbody", {}, v.standings.map((s) => el("tr", { "data-pair": s.pair.number, "data-percent": s.percent ?? "" },
        el("td", { class: "num" }, s.percent === null ? "" : `${s.rank}${s.tied ? "=" : ""}`),
        el("td", {}, pairLabel(v, s.pair.number)),
        el("td", { class: "num" }, s.boards),
        el("td", { class: "num" }, s.matchpoints, el("br"), percent(s.percent)))))));
}

// One side's cell of a table's result: the pair, its score, its matchpoints.
function side(v, pair, score, mp, top, pc) {
  return el("td", {}, el("span", { class: "who" }, pairName(v, pair)), el("br"),
    el("span", { class: "score" }, t("dup.score", "Score {n}", { n: score })), el("br"),
    el("span", { class: "mp" }, t("dup.mp", "{mp} of {top} matchpoints ({pct})", { mp, top, pct: percent(pc) })));
}

// One board's results, a row per table: the pairs, the scores, each side's matchpoints.
export function drawResults(v, board, rows) {
  return el("table", { class: "results", "data-board": board },
    el("thead", {}, el("tr", {},
      el("th", {}, t("dup.table", "Table")),
      el("th", {}, t("dup.ns", "N-S")),
      el("th", {}, t("dup.ew", "E-W")))),
    el("tbody", {}, rows.map((r) => el("tr", { "data-table": r.table, "data-ns-score": r.ns_score,
                                               "data-ew-score": r.ew_score, "data-ns-mp": r.ns_matchpoints,
                                               "data-ew-mp": r.ew_matchpoints },
      el("td", {}, el("strong", {}, r.table),
        r.contract ? [el("br"), el("span", { class: "contract" }, contractText(r.contract))] : null),
      side(v, r.ns, r.ns_score, r.ns_matchpoints, r.top, r.ns_percent),
      side(v, r.ew, r.ew_score, r.ew_matchpoints, r.top, r.ew_percent)))));
}

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "10H" -> "10♥" (the same signs in every language), red suits marked for the eye.
export function cardText(c) {
  const s = c.slice(-1);
  const r = c.slice(0, -1);
  return el("span", { class: `card ${s === "H" || s === "D" ? "red" : ""}`, "data-card": c },
    `${r === "T" ? "10" : r}${SUIT[s] || s}`);
}

export function seatName(name) {
  return { North: t("dup.north", "North"), East: t("dup.east", "East"),
           South: t("dup.south", "South"), West: t("dup.west", "West") }[name] || name;
}

export function drawHands(hands, { kitty = null, stock = null } = {}) {
  return el("div", { class: "hands" },
    hands.map((h) => el("p", { class: "hand", "data-seat": h.seat },
      el("strong", {}, `${seatName(h.direction)}: `), h.cards.map(cardText))),
    kitty ? el("p", { class: "hand kitty" }, el("strong", {}, `${t("dup.kitty", "Kitty")}: `), kitty.map(cardText)) : null,
    stock ? el("p", { class: "hand stock" }, el("strong", {}, `${t("dup.stock", "The rest of the pack, card 1 on top")}: `),
      stockGroups(stock)) : null);
}

// The rest of the pack in fives, each five led by its first card's place from the top, so
// that a dealer stacks it in order (card 1 on top) without losing count.
function stockGroups(stock) {
  const out = [];
  for (let i = 0; i < stock.length; i += 5) {
    const [first, ...rest] = stock.slice(i, i + 5).map(cardText);
    out.push(el("span", { class: "five" },
      el("span", { class: "lead" }, el("span", { class: "pos" }, String(i + 1)), first), rest));
  }
  return out;
}

const SEATS = ["North", "East", "South", "West"];

// A hand's contract as the board page shows it: "North 25 ♥" (the Forty-Fives), or each
// seat's bid (Forty One).
export function contractText(c) {
  if (c.bids) return c.bids.map((b, s) => `${seatName(SEATS[s])} ${b}`).join(" · ");
  if (c.bidder === null || c.bidder === undefined) return t("dup.contract.none", "No bid");
  return `${seatName(SEATS[c.bidder])} ${c.bid}${c.trump ? ` ${SUIT[c.trump] || c.trump}` : ""}`;
}

// A trick: who led, the cards in the order played, who won it.
export function trickLine(tr) {
  return el("li", {}, `${seatName(SEATS[tr.leader])}: `, tr.cards.map(cardText),
    tr.winner === null || tr.winner === undefined ? "" : ` — ${t("dup.trick.won", "won by {seat}", { seat: seatName(SEATS[tr.winner]) })}`);
}

function sideName(seats) {
  return seats.includes(0) ? t("dup.ns", "N-S") : t("dup.ew", "E-W");
}

// The double-dummy par: what the bidders (or the side that led) could take with every card
// seen and best play; in Forty One, the tricks each partnership would take.
export function parText(p) {
  if (p.teams) {
    return t("dup.par.tricks", "With every card seen and best play, {a} would take {x} tricks and {b} {y}.",
      { a: sideName(p.teams[0].seats), x: p.teams[0].tricks, b: sideName(p.teams[1].seats), y: p.teams[1].tricks });
  }
  const text = t("dup.par.points", "With every card seen and best play, {side} could take {points} points.",
    { side: sideName(p.side), points: p.points });
  return p.drawn ? `${text} ${t("dup.par.drawn", "(The kitty and the draw taken as a computer player would.)")}` : text;
}
