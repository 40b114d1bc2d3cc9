// The director's page: the links to hand out, the tables' progress, corrections.
import { boot, el, onSubmit, post, started, t, takeKey } from "./hall.js";
import { showBeside } from "./nearby.js";
import { pairName, phaseText, session, watchSession } from "./dup.js";

await boot();
const sid = session();
const key = takeKey("director");
const $ = (id) => document.getElementById(id);

async function loadLinks() {
  try {
    // (with no key in the link, a director of the session's club, signed in, is one)
    const got = await post(`/api/dup/${sid}/director`, key ? { key } : {});
    if (got.role !== "director") throw new Error(t("dup.nokey.director", "Open the director's link first."));
    const abs = (u) => new URL(u, location.href).toString();
    const items = [
      ["link-session", t("dup.link.session", "The session page (for everyone)"), got.page],
      ["link-recap", t("dup.recap.link", "Printable recap"), got.recap],
    ];
    if (got.report) {
      items.push(["link-report", t("dup.link.report", "The tables' phones (report the scores)"), got.report]);
      items.push(["link-slips", t("dup.link.slips", "Print the board slips"), got.slips]);
    }
    $("links").replaceChildren(...items.map(([id, label, url]) => el("li", {},
      `${label}${t("colon", ": ")}`, el("a", { id, href: url }, abs(url)))),
      ...got.players.map((p) => el("li", { "data-pair": p.pair, "data-member": p.member },
        `${t("dup.player.link", "Pair {n}, player {m}", { n: p.pair, m: p.member + 1 })}${t("colon", ": ")}`,
        el("a", { class: "player-link", href: p.url }, abs(p.url)))));
  } catch (e) {
    $("error").textContent = key ? e.message : t("dup.nokey.director", "Open the director's link first.");
  }
}

function draw(v, error) {
  if (!v) { if (error) $("error").textContent = error; return; }
  $("phase").textContent = phaseText(v);
  $("note").textContent = v.note || "";
  $("progress").replaceChildren(...v.rounds.map((r) => el("div", { class: "round", "data-round": r.number },
    el("h3", {}, t("dup.round.n", "Round {n}", { n: r.number }), r.sit_out ? ` — ${t("dup.sits_out", "{pair} sits out", { pair: pairName(v, r.sit_out) })}` : ""),
    el("ul", {}, r.tables.map((x) => el("li", { "data-table": x.table },
      `${t("dup.table.n", "Table {n}", { n: x.table })}${t("colon", ": ")}${pairName(v, x.ns)} — ${pairName(v, x.ew)} `,
      t("dup.boards.done", "boards done: {list}", { list: x.done.length ? x.done.join(", ") : "—" })))))));
  document.body.dataset.version = v.version;
  document.body.dataset.ready = "1";
}

async function fix(remove) {
  $("error").textContent = "";
  $("done").textContent = "";
  const num = (id) => ($(id).value === "" ? null : Number($(id).value));
  try {
    await post(`/api/dup/${sid}/correct`, { key, board: num("fix-board"), table: num("fix-table"),
      ns: remove ? null : num("fix-ns"), ew: remove ? null : num("fix-ew") });
    $("done").textContent = t("dup.director.fixed", "Done.");
    poll.now();
  } catch (e) { showBeside($("error"), e.message); }
}

onSubmit($("correct"), () => fix(false));
$("fix-remove").addEventListener("click", () => fix(true));
loadLinks();
const poll = watchSession(draw);
started();
