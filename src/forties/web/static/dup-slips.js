// The board slips, the director's: every board's hands listed for a dealer to make it
// from a sorted deck, one cut-out block a board.
import { boot, el, post, t, takeKey } from "./hall.js";
import { drawHands, seatName, session } from "./dup.js";

await boot();
const sid = session();
const key = takeKey("director");
const $ = (id) => document.getElementById(id);
$("print").addEventListener("click", () => window.print());
{
  try {
    // (with no key in the link, a director of the session's club, signed in, is one)
    const got = await post(`/api/dup/${sid}/slips`, key ? { key } : {});
    if (got.title) $("title").textContent = `${got.title}: ${t("dup.slips.title", "Board slips")}`;
    $("slips").replaceChildren(...got.slips.map((s) => el("div", { class: "slip", "data-board": s.board },
      el("h2", {}, t("dup.board.n", "Board {n}", { n: s.board })),
      el("p", {}, t("dup.dealer", "Dealer: {seat}", { seat: seatName(s.dealer) })),
      drawHands(s.hands, { kitty: s.kitty, stock: s.stock }))));
    document.body.dataset.ready = "1";
  } catch (e) {
    $("error").textContent = key ? e.message : t("dup.nokey.director", "Open the director's link first.");
  }
}
