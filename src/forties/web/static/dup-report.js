// The tables' phone: pick the round, the table, the board, then enter both pairs' scores
// on the hand. The server checks them against what one hand of the game can score.
import { boot, el, onSubmit, post, started, t, takeKey } from "./hall.js";
import { showBeside } from "./nearby.js";
import { pairName, phaseText, seatName, session, watchSession } from "./dup.js";

await boot();
const sid = session();
const key = takeKey("tables") || localStorage.getItem(`hall-director-${sid}`);
const $ = (id) => document.getElementById(id);
let view = null;
const pick = { round: null, table: null, board: null };

if (!key) $("error").textContent = t("dup.nokey.tables", "Open the link the director gave the tables.");

function steps() {
  $("step-round").hidden = pick.round !== null;
  $("step-table").hidden = pick.round === null || pick.table !== null;
  $("step-board").hidden = pick.table === null || pick.board !== null;
  $("step-score").hidden = pick.board === null;
  $("back").hidden = pick.round === null;
}

function choose(what, value) {
  pick[what] = value;
  $("done").textContent = "";
  $("error").textContent = "";
  draw(view);
  const first = document.querySelector("section:not([hidden]) button:not([disabled]), section:not([hidden]) input");
  if (first) first.focus();
}

function reset() {
  pick.round = pick.table = pick.board = null;
  draw(view);
}

const SEATS = ["North", "East", "South", "West"];
let contractMade = false;

// The contract's fields, made once from what the game allows (the session's "bidding"):
// the Forty-Fives' bidder, bid and trump; Forty One's four bids of tricks.
function makeContract(b) {
  if (contractMade || !b) return;
  contractMade = true;
  const choose = () => el("option", { value: "" }, t("dup.contract.choose", "Choose…"));
  if (b.tricks) {
    $("c45").hidden = true;
    $("c41").hidden = false;
    for (const x of $("c45").querySelectorAll("select")) x.required = false;
    $("c41").replaceChildren(...SEATS.map((s, i) => el("p", {}, el("label", {},
      el("span", {}, t("dup.contract.seatbid", "{seat}'s bid (tricks)", { seat: seatName(s) })), el("br"),
      el("input", { id: `bid-${i}`, class: "seat-bid", type: "number", inputmode: "numeric",
                    min: String(b.tricks[0]), max: String(b.tricks[1]), required: "" })))));
    return;
  }
  $("bidder").replaceChildren(choose(), ...SEATS.map((s, i) => el("option", { value: String(i) }, seatName(s))),
    b.no_bid ? el("option", { value: "none" }, t("dup.contract.nobid", "Nobody bid: thrown in")) : null);
  $("bid").replaceChildren(choose(), ...b.bids.map((x) => el("option", { value: x }, x)));
  $("trump").replaceChildren(choose(), ...["S", "H", "D", "C"].map((x) => el("option", { value: x },
    t(`suit.${x}`, { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" }[x]))));
  $("bidder").addEventListener("change", () => {
    const none = $("bidder").value === "none";
    for (const id of ["bid", "trump"]) { $(id).disabled = none; $(id).required = !none; }
  });
}

function contract() {
  if (!$("c41").hidden) return { bids: [0, 1, 2, 3].map((i) => Number($(`bid-${i}`).value)) };
  if ($("bidder").value === "none") return { bidder: null };
  return { bidder: Number($("bidder").value), bid: $("bid").value, trump: $("trump").value };
}

function draw(v, error) {
  if (!v) { if (error) $("error").textContent = error; return; }
  view = v;
  makeContract(v.bidding);
  $("phase").textContent = phaseText(v);
  $("rounds").replaceChildren(...v.rounds.map((r) => el("button", {
    "data-round": r.number, "aria-label": t("dup.round.n", "Round {n}", { n: r.number }),
    onclick: () => choose("round", r.number) }, r.number)));
  const r = v.rounds.find((x) => x.number === pick.round);
  const finished = (x) => r.boards.every((b) => x.done.includes(b));
  const picked = r && r.tables.find((x) => x.table === pick.table);
  if (picked && pick.board === null && finished(picked)) {
    pick.round = pick.table = null;  // (its last board is in: the phone starts again for the next)
    return draw(v, error);
  }
  if (r) {
    $("table-title").textContent = t("dup.report.table", "Round {r}: which table?", { r: r.number });
    $("tables").replaceChildren(...r.tables.map((x) => el("button", {
      "data-table": x.table, disabled: finished(x) ? "" : null,
      "aria-label": t("dup.table.n", "Table {n}", { n: x.table }),
      onclick: () => choose("table", x.table) }, x.table)));
    const tb = r.tables.find((x) => x.table === pick.table);
    if (tb) {
      $("board-title").textContent = t("dup.report.board", "Table {t}: which board?", { t: tb.table });
      $("boards").replaceChildren(...r.boards.map((b) => el("button", {
        "data-board": b, disabled: tb.done.includes(b) ? "" : null,
        "aria-label": t("dup.board.n", "Board {n}", { n: b }),
        onclick: () => choose("board", b) }, b)));
      if (pick.board !== null) {
        $("score-title").textContent = t("dup.report.score", "Board {b} at table {t}: the scores on the hand", { b: pick.board, t: tb.table });
        $("ns-label").textContent = `${t("dup.score.ns", "N-S score")} — ${pairName(v, tb.ns)}`;
        $("ew-label").textContent = `${t("dup.score.ew", "E-W score")} — ${pairName(v, tb.ew)}`;
      }
    }
  }
  steps();
  document.body.dataset.version = v.version;
  document.body.dataset.ready = "1";
}

onSubmit($("score"), async () => {
  $("error").textContent = "";
  try {
    await post(`/api/dup/${sid}/report`, { key, round: pick.round, table: pick.table, board: pick.board,
      ns: Number($("ns").value), ew: Number($("ew").value), contract: contract() });
    $("done").textContent = t("dup.report.thanks", "Thank you: board {b} at table {t} is in.", { b: pick.board, t: pick.table });
    $("ns").value = "";
    $("ew").value = "";
    for (const x of $("contract-box").querySelectorAll("input, select")) x.value = "";
    pick.board = null;
    poll.now();
  } catch (e) {
    const said = {
      score: () => t("dup.err.score", "Those two scores cannot both be scored on one hand: check them and send them again."),
      contract: () => t("dup.err.contract", "Those scores cannot come from that contract: check the bid, who won it and the scores."),
      trump: () => t("dup.err.trump", "The bidder could not name that trump with this board's cards: check the trump and who won the bid.") }[e.code];
    showBeside($("error"), said ? said() : e.message);
  }
});
$("back").addEventListener("click", reset);
const poll = watchSession(draw);
started();
