import { boot, el, onSubmit, post, started, t } from "./hall.js";
import { showBeside } from "./nearby.js";

const form = document.getElementById("new");
onSubmit(form, async () => {
  const f = new FormData(form);
  const body = { title: f.get("title"), preset: f.get("preset"), tie_break: f.get("tie_break"),
                 places: f.get("places"), booby: f.has("booby"), duplicate: f.has("duplicate"), bye_wins: f.has("bye_wins"),
                 online: f.has("online") };
  for (const k of ["games", "prizes", "cookie_jar"]) body[k] = Number(f.get(k));
  if (f.get("target")) body.options = { target: Number(f.get("target")) };
  if (body.online && f.get("turn_seconds")) body.turn_seconds = Number(f.get("turn_seconds"));
  try {
    const made = await post("/api/hall", body);
    location.assign(made.url);
  } catch (e) {
    showBeside(document.getElementById("error"), e.message);
  }
});

await boot();
try {
  const r = await fetch("/api/presets");
  if (r.ok) {
    const sel = document.getElementById("preset");
    const presets = (await r.json()).filter((p) => p.players === 4);
    if (presets.length) {
      sel.replaceChildren(...presets.map((p) => el("option", { value: p.name, selected: p.name === "nova-scotia" ? "" : null }, t(`preset.${p.name}.title`, p.title || p.name))));
    }
  }
} catch (e) { /* the default game stays */ }

started();
