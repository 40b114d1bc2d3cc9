import { boot, drawMoves, drawPrizes, drawStandings, el, phaseText, t, watch } from "./hall.js";

await boot();
const $ = (id) => document.getElementById(id);

watch((b, error) => {
  if (!b) { $("error").textContent = error; return; }
  $("error").textContent = "";
  document.title = b.title || t("hall.evening", "45-Card-Games");
  $("title").textContent = b.title || t("hall.evening", "45-Card-Games");
  $("phase").textContent = phaseText(b);
  const now = $("now");
  now.replaceChildren();
  const c = b.current;
  if (c && c.begun && b.status.phase === "playing") {
    const waiting = c.tables.filter((x) => !x.reported).map((x) => x.table);
    now.append(el("p", { class: "big", id: "waiting" }, t("hall.board.waiting", "Waiting for tables: {tables}", { tables: waiting.join(", ") })));
  }
  const over = ["prizes", "finished"].includes(b.status.phase);
  if (c && !over && (c.game > 1 || !c.begun)) now.append(drawMoves(b));
  if (b.online) {
    now.append(el("ul", { class: "links" }, b.online.tables.map((x) => el("li", {},
      el("a", { href: x.url, target: "_blank" }, t("hall.online.table", "Table {n}: couple {a} v couple {b}", { n: x.table, a: x.couples[0], b: x.couples[1] }))))));
  }
  $("standings-box").replaceChildren(drawStandings(b));
  $("prizes-box").replaceChildren(drawPrizes(b));
});
