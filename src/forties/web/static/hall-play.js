// An online evening's player: where to play now. The table opens below, and when its
// game ends the next table opens by itself.
import { boot, evening, post, t, takeKey } from "./hall.js";

await boot();
const eid = evening();
const key = takeKey("player");
const $ = (id) => document.getElementById(id);
$("board-link").href = `/hall/${eid}`;
let shown = null;

async function tick() {
  try {
    const s = await post(`/api/hall/${eid}/seat`, { key });
    $("error").textContent = "";
    $("who").textContent = t("hall.play.who", "{name}, couple {c}", { name: s.name, c: s.couple });
    $("phase").textContent = s.game ? t("hall.phase.playing", "Game {g} of {n}", { g: s.game, n: s.games }) : "";
    const say = {
      waiting: s.table ? t("hall.play.done", "Your game at table {t} is over: the next game begins when every table is done.", { t: s.table })
                       : t("hall.play.wait", "The evening has not started yet."),
      "sitting out": s.bye_wins ? t("hall.play.out.won", "You sit game {g} out: it counts as a game won.", { g: s.game })
                                : t("hall.play.out", "You sit game {g} out.", { g: s.game }),
      playing: t("hall.play.at", "Game {g}: you play at table {t}.", { g: s.game, t: s.table }),
      over: t("hall.play.over", "The evening is over: see the standings and the prizes."),
    }[s.status];
    $("status").textContent = say || s.status;
    if (s.url && s.url !== shown) {
      shown = s.url;
      $("table").src = s.url;
      $("table").hidden = false;
    }
  } catch (e) { $("error").textContent = e.message; }
  setTimeout(tick, 3000);
}
if (!key) $("error").textContent = t("hall.play.nokey", "Open the link the director gave you.");
else tick();
