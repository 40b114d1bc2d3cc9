import { boot, drawMoves, drawPrizes, drawStandings, el, evening, lang, phaseText, pointsBoxes,
         onSubmit, post, readPoints, started, t, takeKey, watch } from "./hall.js";
import { showBeside } from "./nearby.js";

const eid = evening();
const key = takeKey("director");
const $ = (id) => document.getElementById(id);
let links = null;
let board = null;
let fixing = null; // the table being corrected: "game/table"
let renaming = null; // the couple whose names are being corrected
let shownPhase = null;

// a refusal is said beside the button or form that was used (nearby.js)
const errorBox = $("error");
function fail(e, control) { showBeside(errorBox, e.message || String(e), control); }

async function act(path, body = {}) {
  errorBox.textContent = "";
  try {
    const r = await post(`/api/hall/${eid}/${path}`, { key, ...body });
    poll.now();
    return r;
  } catch (e) { fail(e); return null; }
}

function full(path) { return new URL(path, location.origin).toString(); }

function drawLinks(b) {
  if (!links || links.role !== "director") return;
  const g = b.current ? b.current.game : 1;
  const box = $("links");
  box.replaceChildren(
    el("h2", {}, t("hall.links.title", "Links and printing")),
    el("p", { class: "links" },
      el("a", { href: links.board, target: "_blank", id: "board-link" }, t("hall.links.board", "Standings for the projector")),
      el("a", { href: `/hall/${eid}/print/cards?lang=en`, target: "_blank" }, t("hall.links.cards", "Punch cards")),
      el("a", { href: `/hall/${eid}/print/cards?lang=fr`, target: "_blank" }, t("hall.links.cards.fr", "Punch cards (French)")),
      b.current ? el("a", { href: `/hall/${eid}/print/tables?game=${g}&lang=${lang === "fr" ? "fr" : "en"}`, target: "_blank" }, t("hall.links.tables", "Table numbers")) : null),
    el("p", {}, t("hall.links.report", "Link for the tables' phones (they report their winners):"), " ",
      el("a", { href: links.report, id: "report-link", target: "_blank" }, full(links.report))),
    el("p", { class: "links" }, t("hall.links.export", "Export:"), " ",
      el("a", { href: `/api/hall/${eid}/export/json` }, "JSON"),
      el("a", { href: `/api/hall/${eid}/export/standings` }, t("hall.links.csv.standings", "standings (CSV)")),
      el("a", { href: `/api/hall/${eid}/export/results` }, t("hall.links.csv.results", "results (CSV)"))));
  if (links.players.length) {
    box.append(el("details", { id: "player-links" }, el("summary", {}, t("hall.links.players", "Players' links (send each their own)")),
      el("ul", {}, links.players.map((p) => el("li", {}, `${t("hall.couple.n", "Couple {n}", { n: p.couple })}, ${p.name}: `,
        el("a", { href: p.url, target: "_blank" }, full(p.url)))))));
  }
}

function tableCard(b, g, tb) {
  const id = `${g}/${tb.table}`;
  const who = (c) => `${t("hall.couple.n", "Couple {n}", { n: c })}`;
  const card = el("div", { class: tb.reported ? "tablecard done" : "tablecard", "data-table": tb.table },
    el("h3", {}, t("hall.table.n", "Table {n}", { n: tb.table })),
    el("div", {}, `${who(tb.deals_first)} (${t("hall.move.deals", "deals first")}) — ${who(tb.other)}`));
  const online = b.online !== null;
  if (tb.reported && fixing !== id) {
    card.append(el("p", { class: "result" }, tb.winner === null ? t("hall.result.nogame", "No game")
      : t("hall.result.won", "Couple {c} won", { c: tb.winner })));
    card.append(el("button", { class: "warn", onclick: () => { fixing = id; draw(board); } }, t("hall.result.fix", "Correct")));
  } else {
    const web = online ? b.online.tables.find((x) => x.table === tb.table && x.game === g) : null;
    if (web) card.append(el("p", {}, el("a", { href: web.url, target: "_blank" }, t("hall.online.watch", "Watch the table"))));
    const dup = b.settings.duplicate;
    const send = (w) => {
      const body = { game: g, table: tb.table, winner: w };
      try {
        if (dup && w !== null) body.points = readPoints(card, tb.deals_first, tb.other);
      } catch (e) { fail(e); return; }
      act(tb.reported ? "correct" : "report", body).then((r) => { if (r) { fixing = null; } });
    };
    if (dup) card.append(pointsBoxes(tb.deals_first, tb.other));
    card.append(el("div", {},
      el("button", { onclick: () => send(tb.deals_first) }, t("hall.result.won", "Couple {c} won", { c: tb.deals_first })),
      el("button", { onclick: () => send(tb.other) }, t("hall.result.won", "Couple {c} won", { c: tb.other })),
      el("button", { class: "warn", onclick: () => send(null) }, t("hall.result.nogame", "No game"))));
  }
  return card;
}

let pending = null; // a board that came while the director was typing in a table's box

function draw(b, error) {
  if (!b) { fail(new Error(error), null); return; }
  const typing = document.activeElement && document.activeElement.closest && document.activeElement.closest("#game input, #couples input");
  if (typing && board) {
    pending = b;
    return;
  }
  board = b;
  const director = Boolean(links && links.role === "director");
  document.title = b.title || t("hall.evening", "45-Card-Games");
  $("title").textContent = b.title || t("hall.evening", "45-Card-Games");
  $("phase").textContent = phaseText(b);
  $("online-kind").hidden = b.online === null;
  drawLinks(b);
  $("couples").replaceChildren(...b.couples.map((c) => renaming === c.couple ? renameForm(c) : el("li", { "data-couple": c.couple },
    `${c.couple}. ${c.names[0]} & ${c.names[1]}`,
    c.left_game !== null ? ` (${t("hall.door.left", "leaves before game {g}", { g: c.left_game })})` : "",
    director ? el("button", { class: "rename", onclick: () => { renaming = c.couple; draw(board); $("rename-a").focus(); } }, t("hall.door.rename", "Correct the names")) : null,
    director && c.left_game === null && b.status.phase !== "prizes" && b.status.phase !== "finished"
      ? el("button", { class: "warn", onclick: () => act("leave", { couple: c.couple }) }, t("hall.door.leave", "Leaves")) : null)));
  if (b.status.phase !== shownPhase) $("couples-box").open = b.status.phase === "registration";
  shownPhase = b.status.phase;
  $("couples-section").hidden = !director;
  // once the last game has begun, no couple can join: the form goes
  const lastBegun = b.status.phase !== "registration" && b.status.game >= b.games;
  $("door").hidden = !links || links.role !== "director" || lastBegun;
  // tonight's work first: once the evening has begun, the games' results before the door
  if (b.status.phase !== "registration") $("links").before($("game"));
  else $("couples-section").after($("game"));
  const game = $("game");
  game.replaceChildren();
  if (b.current) {
    const c = b.current;
    game.append(el("h2", {}, t("hall.game.title", "Game {g} of {n}", { g: c.game, n: b.games })));
    if (!c.begun) {
      game.append(el("button", { class: "main big", id: "begin", onclick: () => act("begin") },
        c.game === 1 ? t("hall.game.start", "Start the evening") : t("hall.game.next", "Begin game {g}", { g: c.game })));
    }
    if (c.sitting_out !== null) game.append(el("p", {}, t("hall.move.out", "Couple {c} sits out game {g}", { c: c.sitting_out, g: c.game })));
    if (c.begun) game.append(el("div", { class: "tables", id: "tables" }, c.tables.map((tb) => tableCard(b, c.game, tb))));
  }
  if (b.last) {
    game.append(el("h3", {}, t("hall.game.last", "Game {g}: the results (correct them before the next game begins)", { g: b.last.game })),
      el("div", { class: "tables", id: "last-tables" }, b.last.tables.map((tb) => tableCard(b, b.last.game, tb))));
  }
  $("fix-box").hidden = b.status.game < 1 || ["prizes", "finished"].includes(b.status.phase) || b.online !== null;
  if (b.notes.length) game.append(el("ul", { class: "muted" }, b.notes.map((n) => el("li", {}, n))));
  $("moves-box").replaceChildren(b.current && !b.current.begun || (b.current && b.current.game > 1) ? drawMoves(b) : "");
  $("standings-box").replaceChildren(drawStandings(b));
  $("prizes-box").replaceChildren(drawPrizes(b, (event) => act("tie", { event })));
  const end = $("end");
  end.replaceChildren();
  if (b.status.phase === "between games" && b.current && b.current.game > 1) {
    end.append(el("button", { class: "warn", onclick: () => {
      if (confirm(t("hall.close.confirm", "End the evening now, after game {g}?", { g: b.status.game }))) act("close");
    } }, t("hall.close", "End the evening now (time is up)")));
  }
}

// Any earlier result: game, table and the winner (a couple number, or empty for no game).
for (const id of ["game", "couples"]) {
  $(id).addEventListener("focusout", () => setTimeout(() => {
    if (pending && !document.activeElement.closest("#game input, #couples input")) { const b = pending; pending = null; draw(b); }
  }, 0));
}

// A name misspelt at the door, put right at any time: no result changes.
function renameForm(c) {
  const form = el("form", { id: "rename", class: "rename" },
    el("label", {}, el("span", {}, t("hall.door.name1", "First name")), el("br"),
      el("input", { id: "rename-a", maxlength: "60", required: "", autocomplete: "off", value: c.names[0] })),
    el("label", {}, el("span", {}, t("hall.door.name2", "Partner")), el("br"),
      el("input", { id: "rename-b", maxlength: "60", required: "", autocomplete: "off", value: c.names[1] })),
    el("button", { class: "main", type: "submit" }, t("hall.door.rename.save", "Save the names")),
    el("button", { type: "button", onclick: () => { renaming = null; draw(pending || board); pending = null; } }, t("hall.door.rename.cancel", "Cancel")));
  onSubmit(form, async () => {
    const r = await act("rename", { couple: c.couple, names: [$("rename-a").value, $("rename-b").value] });
    if (r) {
      renaming = null;
      if (document.activeElement) document.activeElement.blur();
      const b = pending || board;
      pending = null;
      draw(b);
    }
  });
  return el("li", { "data-couple": c.couple }, `${c.couple}. `, form);
}

onSubmit($("fix-any"), async () => {
  const f = new FormData($("fix-any"));
  const w = f.get("winner");
  const r = await act("correct", { game: Number(f.get("game")), table: Number(f.get("table")), winner: w ? Number(w) : null });
  if (r) $("fix-any").reset();
});

onSubmit($("swap"), async () => {
  const f = new FormData($("swap"));
  const r = await act("swap", { couples: [Number(f.get("a")), Number(f.get("b"))] });
  if (r) $("swap").reset();
});

onSubmit($("register"), async () => {
  const names = [$("name-a").value, $("name-b").value];
  const body = { names };
  if (board && board.online !== null) body.players = $("players").value;
  const r = await act("register", body);
  if (r) {
    $("added").textContent = t("hall.door.added", "Couple {n}: {names}", { n: r.couple, names: names.join(" & ") });
    $("register").reset();
    $("name-a").focus();
    if (r.players) links = await post(`/api/hall/${eid}/director`, { key });
  }
});

// The forms above answer from the first moment; what is typed before the page has started
// (its words, the director's links) waits for it.
await boot();
try {
  links = await post(`/api/hall/${eid}/director`, { key });
  if (links.role !== "director") throw new Error(t("hall.director.notkey", "This link is not the director's."));
} catch (e) {
  fail(e, null);
  for (const id of ["door", "links"]) $(id).hidden = true;
}

const poll = watch(draw);
started();
