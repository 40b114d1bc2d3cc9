// The session page: the standings over the boards every table has played, which tables
// are done, and each complete board's results (updated every few seconds).
import { boot, el, t } from "./hall.js";
import { drawResults, drawStandings, gameName, phaseText, session, watchSession } from "./dup.js";

await boot();
const sid = session();
const $ = (id) => document.getElementById(id);
$("recap-link").href = `/dup/${sid}/recap`;
$("csv-link").href = `/api/dup/${sid}/export/csv`;
$("json-link").href = `/api/dup/${sid}/export/json`;

function draw(v, error) {
  if (!v) { $("error").textContent = error || ""; return; }
  $("error").textContent = "";
  if (v.title) { $("title").textContent = v.title; document.title = v.title; }
  $("phase").textContent = phaseText(v);
  $("game").textContent = gameName(v.game);
  $("standings-box").replaceChildren(drawStandings(v));
  const items = [];
  for (const r of v.rounds) {
    for (const b of r.boards) {
      const done = r.tables.filter((x) => x.done.includes(b)).length;
      items.push(el("li", { "data-board": b, class: v.complete.includes(b) ? "done" : "" },
        el("a", { href: `/dup/${sid}/board/${b}` }, t("dup.board.n", "Board {n}", { n: b })), " ",
        t("dup.board.done", "{done} of {tables} tables done", { done, tables: r.tables.length })));
    }
  }
  $("boards").replaceChildren(...items);
  $("results").replaceChildren(...v.complete.map((b) => el("div", { class: "board-result" },
    el("h3", {}, el("a", { href: `/dup/${sid}/board/${b}` }, t("dup.board.n", "Board {n}", { n: b }))),
    drawResults(v, b, v.results[String(b)]))));
  document.body.dataset.version = v.version;
  document.body.dataset.ready = "1";
}

watchSession(draw);
