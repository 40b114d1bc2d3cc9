// An online session's player: the board to play now. Its table opens below; when the
// board is over the next one opens by itself, and the boards played link to their pages.
import { boot, el, post, t, takeKey } from "./hall.js";
import { session } from "./dup.js";

await boot();
const sid = session();
const key = takeKey("player");
const $ = (id) => document.getElementById(id);
$("session-link").href = `/dup/${sid}`;
let shown = null;

async function tick() {
  try {
    const s = await post(`/api/dup/${sid}/seat`, { key });
    $("error").textContent = "";
    $("who").textContent = t("dup.play.who", "{name}, pair {p}", { name: s.name, p: s.pair });
    $("phase").textContent = s.round ? t("dup.round.n", "Round {n}", { n: s.round }) : "";
    const say = {
      playing: t("dup.play.at", "Board {b}: you play at table {t}.", { b: s.board, t: s.table }),
      opening: t("dup.play.opening", "Board {b} at table {t} is being opened.", { b: s.board, t: s.table }),
      waiting: t("dup.play.waiting", "Your boards of this round are played: the next round begins when every table is done."),
      "sitting out": t("dup.play.out", "You sit this round out."),
      over: t("dup.play.over", "The session is over: see the standings."),
    }[s.status];
    $("status").textContent = say || s.status;
    document.body.dataset.status = s.status;
    document.body.dataset.board = s.board ?? "";
    if (s.url && s.url !== shown) {
      shown = s.url;
      $("table").src = s.url;
    }
    $("table").hidden = s.status !== "playing";
    $("boards").replaceChildren(...s.boards.map((b) => el("li", { "data-board": b.board, class: b.done ? "done" : "" },
      b.done ? el("a", { href: `/dup/${sid}/board/${b.board}` }, t("dup.board.n", "Board {n}", { n: b.board }))
             : t("dup.board.n", "Board {n}", { n: b.board }))));
    document.body.dataset.ready = "1";
  } catch (e) { $("error").textContent = e.message; }
  setTimeout(tick, 3000);
}
if (!key) $("error").textContent = t("dup.play.nokey", "Open the link the director gave you.");
else tick();
