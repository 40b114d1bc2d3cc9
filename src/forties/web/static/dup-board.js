// One board: which tables are done; once every table has played it (or, with a
// partnership's link, once that partnership has), the cards and every table's result.
import { boot, el, post, t } from "./hall.js";
import { contractText, drawHands, drawResults, pairName, parText, seatName, session, trickLine } from "./dup.js";

await boot();
const sid = session();
const n = Number(location.pathname.split("/")[4]);
const $ = (id) => document.getElementById(id);
$("session-link").href = `/dup/${sid}`;
$("title").textContent = t("dup.board.n", "Board {n}", { n });
document.title = $("title").textContent;
const key = localStorage.getItem(`hall-player-${sid}`) || localStorage.getItem(`hall-director-${sid}`);
let names = null;
let waits = 0;

async function tick() {
  try {
    if (!names) names = await (await fetch(`/api/dup/${sid}`)).json();
    const b = await post(`/api/dup/${sid}/board/${n}`, key ? { key } : {});
    $("error").textContent = "";
    $("phase").textContent = t("dup.phase.round", "Round {r} of {n}", { r: b.round, n: names.rounds.length });
    $("tables").replaceChildren(...b.tables.map((x) => el("li", { "data-table": x.table, class: x.done ? "done" : "" },
      t("dup.table.n", "Table {n}", { n: x.table }), ": ", pairName(names, x.ns), " — ", pairName(names, x.ew), " ",
      x.done ? t("dup.table.done", "done") : t("dup.table.playing", "still playing"))));
    $("status").textContent = b.shown ? "" : t("dup.board.hidden", "The cards and results are shown once every table has played this board.");
    $("cards-box").hidden = !b.shown;
    $("rows-box").hidden = !b.shown;
    document.body.dataset.shown = b.shown ? "1" : "0";
    if (b.shown) {
      names = await (await fetch(`/api/dup/${sid}`)).json();
      $("dealer").textContent = t("dup.dealer", "Dealer: {seat}", { seat: seatName(b.dealer) });
      $("hands").replaceChildren(drawHands(b.hands, { kitty: b.kitty }));
      $("rows").replaceChildren(drawResults(names, n, b.rows));
      // each table's contract (online: and its tricks) beside its par
      $("plays").replaceChildren(...b.rows.filter((r) => r.tricks || r.contract).map((r) => el("div", { class: "play", "data-table": r.table },
        el("h3", {}, t("dup.table.n", "Table {n}", { n: r.table }), r.contract ? ` — ${contractText(r.contract)}` : ""),
        r.par ? el("p", { class: "par" }, parText(r.par)) : null,
        r.tricks ? el("ol", { class: "tricks" }, r.tricks.map(trickLine)) : null)));
    }
    document.body.dataset.ready = "1";
    // once complete, asked again a while only for the pars still being worked out
    const parsDue = b.shown && b.rows.some((r) => ((r.tricks && r.tricks.length) || (r.contract && r.contract.bidder !== null)) && !r.par);
    if (b.complete && (!parsDue || (waits += 1) > 15)) return;
  } catch (e) { $("error").textContent = e.message; }
  setTimeout(tick, 4000);
}
tick();
