import { boot, el, evening, phaseText, pointsBoxes, post, readPoints, t, takeKey, watch } from "./hall.js";
import { showBeside } from "./nearby.js";

await boot();
const eid = evening();
const key = takeKey("tables") || localStorage.getItem(`hall-director-${eid}`);
const $ = (id) => document.getElementById(id);
let board = null;
let chosen = null; // table number
let shown = null; // what the winner's step shows: "game/table/reported"

if (!key) $("error").textContent = t("hall.report.nokey", "Open the link the director gave the tables.");

function showTables() {
  chosen = null;
  shown = null;
  $("step-winner").hidden = true;
  $("step-table").hidden = false;
  draw(board);
}

function chooseTable(n) {
  chosen = n;
  $("done").textContent = "";
  $("error").textContent = "";
  draw(board);
}

async function send(game, table, winner, points) {
  $("error").textContent = "";
  try {
    const body = { key, game, table, winner };
    if (points) body.points = readPoints($("winners"), ...points);
    await post(`/api/hall/${eid}/report`, body);
    $("done").textContent = winner === null
      ? t("hall.report.thanks.nogame", "Thank you: table {t}, no game.", { t: table })
      : t("hall.report.thanks", "Thank you: table {t}, couple {c} won.", { t: table, c: winner });
    poll.now();
    showTables();
    const again = $("tables").querySelector(`button[data-table='${table}']`);
    if (again) again.focus();
  } catch (e) { showBeside($("error"), e.message); }
}

function draw(b, error) {
  if (!b) { if (error) $("error").textContent = error; return; }
  board = b;
  $("phase").textContent = phaseText(b);
  const c = b.current;
  const open = c && !["prizes", "finished"].includes(b.status.phase);
  $("tables").replaceChildren(...(open ? c.tables : []).map((x) => el("button", {
    "data-table": x.table, disabled: x.reported ? "" : null, "aria-label": t("hall.table.n", "Table {n}", { n: x.table }),
    onclick: () => chooseTable(x.table) }, x.table)));
  if (!open) { $("step-winner").hidden = true; return; }
  if (chosen === null) return;
  const x = c.tables.find((y) => y.table === chosen);
  if (!x) { chosen = null; return; }
  $("step-table").hidden = true;
  $("step-winner").hidden = false;
  $("winner-title").textContent = t("hall.report.who", "Game {g}, table {t}: who won?", { g: c.game, t: x.table });
  const now = `${c.game}/${x.table}/${x.reported}/${x.deals_first}/${x.other}`;
  if (now === shown) return; // keep what is being typed
  shown = now;
  const name = (n) => {
    const cp = b.couples.find((y) => y.couple === n);
    return cp ? ` — ${cp.names[0]} & ${cp.names[1]}` : "";
  };
  if (x.reported) {
    $("winners").replaceChildren(el("p", {}, t("hall.report.already", "This table is in already. The director corrects mistakes.")));
    return;
  }
  const pts = b.settings.duplicate ? [x.deals_first, x.other] : null;
  $("winners").replaceChildren(
    pts ? pointsBoxes(...pts) : "",
    el("button", { class: "main", "data-winner": x.deals_first, onclick: () => send(c.game, x.table, x.deals_first, pts) },
      t("hall.couple.n", "Couple {n}", { n: x.deals_first }), name(x.deals_first)),
    el("button", { class: "main", "data-winner": x.other, onclick: () => send(c.game, x.table, x.other, pts) },
      t("hall.couple.n", "Couple {n}", { n: x.other }), name(x.other)),
    el("button", { class: "warn", "data-winner": "none", onclick: () => send(c.game, x.table, null) },
      t("hall.result.nogame", "No game")));
  const first = $("winners").querySelector("input, button");
  if (first) first.focus();
}

$("back").addEventListener("click", showTables);
const poll = watch(draw, 3000);
