// A club's seasons: the list (each season's standings and projector page) and, for the
// club's directors, a form to set a new one up and one to change a season (in place: it
// keeps its address).
import { boot, el, lang, onSubmit, post, started, t } from "./hall.js";

const $ = (id) => document.getElementById(id);
const club = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = `/api/clubs/${encodeURIComponent(club)}/seasons`;

// the edit form asks what the new season's form asks (a copy of its fields: labels that
// wrap their inputs, no ids), then the time zone; made before the page is translated
$("edit").prepend(...[...$("new").querySelectorAll("p:not(:last-child)")].map((p) => p.cloneNode(true)));
$("edit").elements.namedItem("name").removeAttribute("placeholder");

await boot();
$("club-link").href = `/club/${encodeURIComponent(club)}`;

function day(iso) {
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(lang, { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });
}

async function load() {
  const r = await fetch(base);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { $("error").textContent = data.error || `HTTP ${r.status}`; return; }
  document.title = t("seasons.heading", "Seasons of {club}", { club: data.club.name });
  $("title").textContent = document.title;
  $("none").hidden = data.seasons.length > 0;
  $("seasons").replaceChildren(...data.seasons.map((s) => {
    const page = `/club/${encodeURIComponent(club)}/season/${encodeURIComponent(s.id)}`;
    return el("li", { "data-season": s.id },
      el("a", { href: page }, s.name), " ",
      t("seasons.dates", "from {starts} to {ends}", { starts: day(s.starts), ends: day(s.ends) }), " ",
      el("a", { href: `${page}/projector` }, t("seasons.projector", "projector")),
      data.director ? [" ", el("button", { type: "button", "data-edit": s.id, onclick: () => edit(s) }, t("seasons.edit", "Edit")),
        " ", el("button", { class: "warn", type: "button", onclick: () => remove(s) }, t("seasons.remove", "Remove"))] : null);
  }));
  $("new-box").hidden = !data.director;
}

async function remove(s) {
  if (!window.confirm(t("seasons.remove.ask", "Remove the season {name}? Its evenings stay.", { name: s.name }))) return;
  try {
    await post(`${base}/${encodeURIComponent(s.id)}/remove`, {});
    await load();
  } catch (e) { $("error").textContent = e.message; }
}

function zone() {
  try {
    const z = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof z === "string" && z ? z : null;
  } catch { return null; }
}

// the season's fields as a form holds them (create's and the edit's)
function fields(f) {
  const best = f.counted.value === "best" ? Number(f.best.value) : null;
  return { name: f.elements.namedItem("name").value, starts: f.starts.value, ends: f.ends.value,
    rule: { best, ties: f.ties.value, prizes: Number(f.prizes.value) } };
}

onSubmit($("new"), async () => {
  $("new-error").textContent = "";
  try {
    const made = await post(base, { ...fields($("new")),
      // (the season's days are this device's days: an evening at 19:30 in Halifax is
      // that day's, though the next day's in UTC)
      ...(zone() ? { zone: zone() } : {}) });
    location.assign(made.url);
  } catch (e) { $("new-error").textContent = e.message; } // (by the button pressed)
});

// the edit form, filled in with the season as it is (its time zone among the device's)
let editing = null;
function edit(s) {
  editing = s;
  const f = $("edit");
  f.elements.namedItem("name").value = s.name;
  f.starts.value = s.starts;
  f.ends.value = s.ends;
  f.counted.value = s.rule.best === null ? "all" : "best";
  if (s.rule.best !== null) f.best.value = s.rule.best;
  f.ties.value = s.rule.ties;
  f.prizes.value = s.rule.prizes;
  let zones = [];
  try { zones = Intl.supportedValuesOf("timeZone"); } catch { /* (an older browser: the season's own and UTC) */ }
  const here = zone();
  f.zone.replaceChildren(...[...new Set([s.zone, ...(here ? [here] : []), "UTC", ...zones])].sort()
    .map((z) => el("option", { value: z, selected: z === s.zone ? "" : null }, z.replaceAll("_", " "))));
  $("edit-h").textContent = t("seasons.edit.heading", "Edit the season {name}", { name: s.name });
  $("edit-box").hidden = false;
  f.elements.namedItem("name").focus();
}

onSubmit($("edit"), async () => {
  if (!editing) return;
  $("edit-error").textContent = "";
  try {
    const changed = await post(`${base}/${encodeURIComponent(editing.id)}`, { ...fields($("edit")), zone: $("edit").zone.value });
    location.assign(changed.url);
  } catch (e) { $("edit-error").textContent = e.message; }
});

$("edit-cancel").addEventListener("click", () => {
  const s = editing;
  editing = null;
  $("edit-box").hidden = true;
  if (s) document.querySelector(`[data-edit="${CSS.escape(s.id)}"]`)?.focus();
});

await load();
started();
