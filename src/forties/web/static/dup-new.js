// A new duplicate session: the form, then the director's page (its key in the link).
import { boot, onSubmit, post, started, t } from "./hall.js";
import { showBeside } from "./nearby.js";

await boot();
const $ = (id) => document.getElementById(id);
onSubmit($("new"), async () => {
  $("error").textContent = "";
  const names = $("pairs").value.split("\n").map((x) => x.trim()).filter((x) => x);
  try {
    const made = await post("/api/dup", {
      title: $("title").value, game: $("game").value, boards: Number($("boards").value),
      partnerships: names.map((name) => ({ name })) });
    location.assign(made.url);
  } catch (e) { showBeside($("error"), e.message || t("dup.error", "That did not work.")); }
});
started();
document.body.dataset.ready = "1";
