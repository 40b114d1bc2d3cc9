// A new duplicate session: the form (a row a partnership: its name and, online, who
// plays its seats), then the director's page (its key in the link).
import { boot, el, onSubmit, post, started, t } from "./hall.js";
import { showBeside } from "./nearby.js";

await boot();
const $ = (id) => document.getElementById(id);
const KINDS = [["people", () => t("dup.kind.people", "Two people")],
  ["mixed", () => t("dup.kind.mixed", "One person and a computer")],
  ["computer", () => t("dup.kind.computer", "Computer players")]];
const LEVELS = [["basic", () => t("dup.level.basic", "Computers (basic)")],
  ["random", () => t("dup.level.random", "Computers (random)")],
  ["expert", () => t("dup.level.expert", "Computers (expert)")]];

function addPair() {
  const n = $("pairs").children.length + 1;
  const online = $("mode").value === "online";
  $("pairs").append(el("li", { "data-pair": n },
    el("label", {}, el("span", { class: "sr-only" }, t("dup.pair.n", "Pair {n}", { n })), " ",
      el("input", { class: "pair-name", maxlength: "60", list: clubId ? "member-names" : null,
                    "aria-label": t("dup.pair.name", "Names of pair {n}", { n }) })),
    el("label", { class: "online-only", hidden: online ? null : "" },
      el("select", { class: "pair-kind", "aria-label": t("dup.pair.kind", "Who plays for pair {n}", { n }) },
        KINDS.map(([v, w]) => el("option", { value: v }, w())))),
    el("label", { class: "online-only", hidden: online ? null : "" },
      el("select", { class: "pair-level", "aria-label": t("dup.pair.level", "Computer level of pair {n}", { n }) },
        LEVELS.map(([v, w]) => el("option", { value: v }, w()))))));
}

function showMode() {
  const online = $("mode").value === "online";
  $("fill-box").hidden = !online;
  for (const x of document.querySelectorAll(".online-only")) x.hidden = !online;
}

// made from a club's page (/dup?club=ID): the club's session, in its calendar, its game
// the club's when it is one of these
const clubId = new URLSearchParams(location.search).get("club");
if (clubId) {
  try {
    const r = await fetch(`/api/clubs/${encodeURIComponent(clubId)}`);
    const club = await r.json();
    if (r.ok) {
      $("club-note").textContent = t("dup.new.club", "For the club {name}: the session enters its calendar, and its directors direct it.", { name: club.name });
      $("club-note").hidden = false;
      if ([...$("game").options].some((o) => o.value === club.rules.preset)) $("game").value = club.rules.preset;
      // its date in the calendar, and its members' names offered for the partnerships
      // (a guest's name is typed as it is)
      $("club-when").hidden = false;
      $("member-names").replaceChildren(...(club.members || []).map((m) => el("option", { value: m.name })));
      for (const x of document.querySelectorAll(".pair-name")) x.setAttribute("list", "member-names");
    }
  } catch (e) { /* (the server says what is wrong when the session is made) */ }
}

for (let i = 0; i < 4; i += 1) addPair();
$("add-pair").addEventListener("click", () => { addPair(); $("pairs").lastChild.querySelector("input").focus(); });
$("mode").addEventListener("change", showMode);

onSubmit($("new"), async () => {
  $("error").textContent = "";
  const online = $("mode").value === "online";
  const partnerships = [...$("pairs").children].map((li) => {
    const name = li.querySelector(".pair-name").value.trim();
    const kind = li.querySelector(".pair-kind").value;
    const level = li.querySelector(".pair-level").value;
    const p = { name };
    if (online && kind === "computer") p.computer = level;
    if (online && kind === "mixed") p.one_computer = level;
    return p;
  }).filter((p) => p.name);
  try {
    const body = { title: $("title").value, game: $("game").value, boards: Number($("boards").value),
                   mode: $("mode").value, partnerships };
    if (online && $("fill").value) body.fill = $("fill").value;
    if (clubId) body.club = clubId;
    if (clubId && $("when-date").value) {
      // the date and time as the director's device reads them (its own time zone), sent in
      // UTC, as the club's page sends an evening's
      const local = `${$("when-date").value}T${$("when-time").value || "19:30"}`;
      const at = new Date(local);
      body.when = Number.isNaN(at.getTime()) ? local : at.toISOString().slice(0, 16);
    }
    const made = await post("/api/dup", body);
    location.assign(made.url);
  } catch (e) { showBeside($("error"), e.message || t("dup.error", "That did not work.")); }
});
started();
document.body.dataset.ready = "1";
