// The printable recap: the standings, then every board's results and matchpoints.
import { boot, el, t } from "./hall.js";
import { drawResults, drawStandings, gameName, getJSON, phaseText, session } from "./dup.js";

await boot();
const $ = (id) => document.getElementById(id);
$("print").addEventListener("click", () => window.print());
try {
  const v = await getJSON(`/api/dup/${encodeURIComponent(session())}`);
  if (v.title) { $("title").textContent = v.title; document.title = v.title; }
  $("phase").textContent = phaseText(v);
  $("game").textContent = gameName(v.game);
  $("standings-box").replaceChildren(drawStandings(v));
  $("results").replaceChildren(...v.complete.map((b) => el("div", { class: "board-result" },
    el("h3", {}, t("dup.board.n", "Board {n}", { n: b })), drawResults(v, b, v.results[String(b)]))));
  document.body.dataset.ready = "1";
} catch (e) { $("error").textContent = e.message; }
