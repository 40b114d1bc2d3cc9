"""Counts said with their nouns, in Chromium: French puts 0 and 1 in the singular ("0 point",
"1 point", "1 pli"), English only 1 ("1 point", "0 points"), Arabic 1; the pages pick a
sentence's singular (its id.one) by that rule (i18n.js pluralForm and tn, hall.js tn), in
the par line, the score pad's refusal, the lobby and the hall's registration line."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import PHONE, new_page, post

# Each language's form for the counts 0, 1, 2, 5, -1, 1.5 and 13
FORMS = {
    "en": ["other", "one", "other", "other", "one", "other", "other"],
    "fr": ["one", "one", "other", "other", "one", "one", "other"],
    "ar": ["other", "one", "other", "other", "one", "other", "other"],
}


def test_each_language_has_its_rule_for_the_singular(server: str, browser: Any) -> None:
    page = new_page(browser, PHONE)
    page.goto(server + "/")
    got = page.evaluate("""async () => {
      const m = await import('/static/i18n.js');
      const out = {};
      for (const code of ['en', 'fr', 'ar']) {
        out[code] = [0, 1, 2, 5, -1, 1.5, 13].map((n) => m.pluralForm(code, n));
      }
      return out;
    }""")
    assert got == FORMS
    assert not page.errors
    page.context.close()


# What tn() makes of the catalogs' sentences, for 0, 1 and 2
SAID = """async (lang) => {
  const m = await import('/static/i18n.js');
  await m.loadLanguage(lang);
  const said = (id, p) => [0, 1, 2].map(
    (k) => m.tn(id, k, { names: 'Ann', [p]: k, bids: '3 + 4' }));
  return {
    points: said('review.par_points', 'points'),
    tricks: said('review.par_tricks_you', 'points'),
    team: said('review.par_team', 'tricks'),
    seconds: said('table.seconds_left', 'count'),
    free: said('home.lobby.free', 'count'),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_par_and_the_counts_take_the_singular_by_the_language(
        server: str, browser: Any, lang: str) -> None:
    page = new_page(browser, PHONE, lang)
    page.goto(server + f"/?lang={lang}")
    got = page.evaluate(SAID, lang)
    if lang == "fr":  # it said "0 points", "1 points", "1 plis"
        assert got["points"] == [f"Ann pouvaient faire {n} à cartes ouvertes." for n in
                                 ("0 point", "1 point", "2 points")]
        assert got["tricks"] == [f"Ann pouviez faire {n} à cartes ouvertes." for n in
                                 ("0 pli", "1 pli", "2 plis")]
        assert got["team"] == [f"Ann feraient {n} (ils ont annoncé 3 + 4)" for n in
                               ("0 pli", "1 pli", "2 plis")]
        assert got["seconds"] == ["0 seconde restante", "1 seconde restante",
                                  "2 secondes restantes"]
        assert got["free"] == ["(0 libre)", "(1 libre)", "(2 libres)"]
    else:
        assert got["points"] == [f"With every card seen, Ann could take {n}." for n in
                                 ("0 points", "1 point", "2 points")]
        assert got["team"] == [f"Ann would take {n} (they bid 3 + 4)" for n in
                               ("0 tricks", "1 trick", "2 tricks")]
        assert got["seconds"] == ["0 seconds left", "1 second left", "2 seconds left"]
    assert not page.errors
    page.context.close()


@pytest.mark.parametrize(("lang", "said"), [("fr", ["Inscriptions : 0 couple",
                                                     "Inscriptions : 1 couple",
                                                     "Inscriptions : 2 couples"]),
                                            ("en", ["Registration: 0 couples",
                                                    "Registration: 1 couple",
                                                    "Registration: 2 couples"])])
def test_the_halls_registration_line_counts_its_couples(
        server: str, browser: Any, lang: str, said: list[str]) -> None:
    page = new_page(browser, PHONE, lang)
    page.goto(server + f"/hall?lang={lang}")
    got = page.evaluate("""async () => {
      const h = await import('/static/hall.js');
      await h.loadMessages();
      return [0, 1, 2].map((n) => h.phaseText({ status: { phase: 'registration' },
                                                couples: Array(n).fill({}) }));
    }""")
    assert got == said
    assert not page.errors
    page.context.close()


def test_the_french_lobby_says_one_free_seat_in_the_singular(server: str, browser: Any) -> None:
    """A public table with one seat left: the French lobby says "(1 libre)" (it said
    "(1 libres)")."""
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Solange",
                                        "public": True})
    for seat in (1, 2):
        post(server, f"/api/tables/{made['table']}/seat",
             {"token": made["token"], "seat": seat, "level": "basic"})
    page = new_page(browser, PHONE, "fr")
    page.goto(server + "/?lang=fr")
    entry = page.locator("#lobby li", has_text="Solange")
    entry.wait_for()
    assert entry.inner_text().endswith("(1 libre)"), entry.inner_text()
    assert not page.errors
    page.context.close()
