"""The browser client's message catalogs: every message id the client uses is in every
catalog (English, French, Arabic), and every catalog has the same ids, each translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from forties.cards import RANKS, SUITS
from forties.pad import CODES as PAD_CODES
from forties.reasons import CODES as REASON_CODES
from forties.rules import OPTIONS, PRESETS
from forties.state import REFUSAL_CODES

WEB = Path(__file__).resolve().parents[1] / "src" / "forties" / "web"
STATIC = WEB / "static"
LANGS = ("en", "fr", "ar")

LITERAL_IDS = re.compile(r"""\bt\(\s*['"]([^'"]+)['"]""")
# tn('id', count, ...): the id and its singular, id.one
COUNTED_IDS = re.compile(r"""\btn\(\s*['"]([^'"]+)['"]""")
TERNARY_IDS = re.compile(r"""\?\s*'([a-z0-9_]+\.[a-z0-9_.]+)'\s*:\s*'([a-z0-9_]+\.[a-z0-9_.]+)'""")
HTML_IDS = re.compile(r'data-i18n(?:-label|-placeholder|-title)?="([^"]+)"')
# A message id made at run time: `prefix.${...}.suffix` (one interpolation)
FAMILY = re.compile(r"`([a-z_.]+)\$\{[^}`]+\}([a-z_.]*)`")


def catalog(lang: str) -> dict[str, str]:
    with open(WEB / "locale" / f"{lang}.po", "rb") as f:
        cat = read_po(f)
    return {str(m.id): str(m.string) for m in cat if m.id}


def js_list(name: str, file: str) -> list[str]:
    """A constant array of strings in one of the client's modules."""
    text = (STATIC / file).read_text(encoding="utf-8")
    m = re.search(rf"const {name} = \[([^\]]*)\]", text)
    assert m, f"{file} has no {name} list"
    return re.findall(r"'([^']+)'", m.group(1))


def families() -> dict[tuple[str, str], list[str]]:
    """What each run-time id family stands for: the keys it can take."""
    options = sorted({o.name for o in OPTIONS})
    values = sorted({str(v) for o in OPTIONS for v in (o.values or ()) if isinstance(v, str)}
                    | {"true", "false", "null"})
    phases = ["bid", "raise", "trump", "draw", "pack", "rob", "call", "play"]
    phrases = js_list("PHRASES", "table.js")
    levels = js_list("LEVELS", "util.js")
    codes = js_list("CODES", "util.js")
    return {
        ("preset.", ".title"): list(PRESETS), ("preset.", ".summary"): list(PRESETS),
        ("option.", ".label"): options, ("option.", ".help"): options,
        ("value.", ""): values, ("level.", ""): levels,
        ("rank.", ""): list(RANKS), ("suit.", ""): list(SUITS),
        ("phrase.", ""): phrases,
        ("status.you.", ""): phases, ("status.other.", ""): phases,
        ("pad.note.", ""): ["made", "set", "thrown in"],
        ("pad.err.", ""): list(PAD_CODES),
        ("error.code.", ""): codes,
        ("error.frame.", ""): js_list("FRAME_CODES", "table.js"),
        ("refusal.", ""): list(REFUSAL_CODES),
        ("theme.", ""): js_list("THEMES", "theme.js"),
        ("hint.why.", ""): list(REASON_CODES),
    }


def used_ids() -> set[str]:
    ids: set[str] = set()
    fams = families()
    for path in sorted(STATIC.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        ids.update(LITERAL_IDS.findall(text))
        for x in COUNTED_IDS.findall(text):
            ids.update((x, f"{x}.one"))
        for a, b in TERNARY_IDS.findall(text):
            ids.update((a, b))
        for prefix, suffix in FAMILY.findall(text):
            if prefix.startswith("forties."):  # the browser's saved seats, not messages
                continue
            assert (prefix, suffix) in fams, (
                f"{path.name}: message ids `{prefix}${{...}}{suffix}` are made at run time; "
                "name the keys they take in families() so that the catalogs can be checked")
            ids.update(f"{prefix}{k}{suffix}" for k in fams[prefix, suffix])
    for path in sorted(STATIC.glob("*.html")):
        ids.update(HTML_IDS.findall(path.read_text(encoding="utf-8")))
    return ids


def test_the_client_uses_many_ids() -> None:
    ids = used_ids()
    # the scan itself works: ids from the HTML, from t('...') calls, and from families
    assert {"home.play_now", "act.pass", "option.kitty.help", "rank.A", "suit.H",
            "phrase.hearts-on-hearts", "preset.forty-one.title"} <= ids
    assert len(ids) > 250


@pytest.mark.parametrize("lang", LANGS)
def test_every_id_used_is_in_the_catalog(lang: str) -> None:
    missing = sorted(used_ids() - set(catalog(lang)))
    assert not missing, f"{lang}.po lacks {missing[:10]}"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_catalogs_have_the_same_ids(lang: str) -> None:
    en, other = set(catalog("en")), set(catalog(lang))
    assert not en - other, f"{lang}.po lacks {sorted(en - other)[:10]}"
    assert not other - en, f"{lang}.po has ids English lacks: {sorted(other - en)[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_singular_follows_its_sentence(lang: str) -> None:
    """An id.one (the sentence for a count said with the singular, "1 point") comes right
    after its id, which the pages use for every other count."""
    with open(WEB / "locale" / f"{lang}.po", "rb") as f:
        ids = [str(m.id) for m in read_po(f) if m.id]
    ones = [i for i, x in enumerate(ids) if x.endswith(".one")]
    assert len(ones) >= 15
    assert not [ids[i] for i in ones if ids[i - 1] != ids[i][:-len(".one")]]


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_written(lang: str) -> None:
    empty = [i for i, s in catalog(lang).items() if not s.strip()]
    assert not empty, f"{lang}.po has ids with no text: {empty[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_fields_match_english(lang: str) -> None:
    """A translation fills the same {fields} as the English text (else a name goes missing)."""
    en = catalog("en")
    bad = [i for i, s in catalog(lang).items()
           if set(re.findall(r"\{(\w+)\}", s)) != set(re.findall(r"\{(\w+)\}", en[i]))]
    assert not bad, f"{lang}.po fields differ from English in {bad[:10]}"


def test_translations_are_translated() -> None:
    """French and Arabic are not English copied: most texts differ, Arabic is in Arabic,
    and the page direction is right to left for Arabic only."""
    en, fr, ar = catalog("en"), catalog("fr"), catalog("ar")
    assert sum(fr[i] != en[i] for i in en) > 0.8 * len(en)
    arabic = re.compile(r"[\u0600-\u06FF]")
    assert sum(bool(arabic.search(ar[i])) for i in en) > 0.9 * len(en)
    assert (en["dir"], fr["dir"], ar["dir"]) == ("ltr", "ltr", "rtl")
    assert (fr["suit.H"], ar["suit.H"]) == ("cœur", "كبة")


def test_the_hall_draw_method_is_the_published_one_in_every_language() -> None:
    from forties.hall.draw import METHOD

    # the projector shows the method in the reader's language; the English is the server's
    assert catalog("en")["hall.draws.method"] == METHOD
    for lang in ("fr", "ar"):
        text = catalog(lang)["hall.draws.method"]
        assert 'random.Random("{seed}/{name}/{k}").shuffle(deck)' in text
        assert "cut/prize-1" in text and text != METHOD


def test_every_coded_pad_refusal_is_listed() -> None:
    """Each code a pad's refusal carries is in forties.pad.CODES (so in every catalog)."""
    import ast

    tree = ast.parse((WEB.parent / "pad.py").read_text(encoding="utf-8"))
    raised = {node.args[1].value for node in ast.walk(tree)
              if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "PadError"
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)}
    assert raised == set(PAD_CODES), sorted(raised ^ set(PAD_CODES))


def test_one_helper_reads_the_servers_computer_name() -> None:
    """The name the server gives a computer player nobody named, "Computer (basic)"
    (forties.table.computer_name), is read in one place (util.js computerLevel) that the
    table, the lobby and the replay all use; no other script spells it out."""
    spelled = re.compile(r"`Computer \(\$\{|Computer \\\(|'Computer \(")
    util = (STATIC / "util.js").read_text(encoding="utf-8")
    assert "export function computerLevel(" in util and spelled.search(util)
    for name in ("table.js", "home.js", "replay.js"):
        text = (STATIC / name).read_text(encoding="utf-8")
        assert re.search(r"import \{[^}]*\bcomputerLevel\b[^}]*\} from './util.js'", text), name
        assert "computerLevel(" in text.split("from './util.js'", 1)[1], name
    others = [p.name for p in STATIC.glob("*.js")
              if p.name != "util.js" and spelled.search(p.read_text(encoding="utf-8"))]
    assert others == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_players_help_names_what_the_form_offers(lang: str) -> None:
    """The players option's help says the range the form lists and the server accepts
    (the option's own values: 2 to 10, as far as the deck deals), not a narrower one."""
    values = next(o.values for o in OPTIONS if o.name == "players")
    assert values is not None
    counts = [v for v in values if isinstance(v, int)]
    lo, hi = min(counts), max(counts)
    text = catalog(lang)["option.players.help"]
    assert [int(n) for n in re.findall(r"\d+", text)] == [lo, hi], text


def test_forty_one_says_trick_and_bid_one_way_in_each_language() -> None:
    """The table and the score pad call a Forty One trick and bid by the same word: in
    French "pli" and "annonce" (the pad said "levée" and "demande"), in Arabic "لمّة" (the
    pad said "أكلة"); Forty One's Arabic summary writes its numbers as the table does."""
    fr, ar = catalog("fr"), catalog("ar")
    assert not [k for k, v in fr.items() if "levée" in v.lower()]
    assert not [k for k, v in ar.items() if "أكل" in v]
    for key in ("review.par_team", "review.par_team_about", "pad.err.bid-41", "pad.ui.bids",
                "pad.ui.thrown41", "pad.ui.sum41", "review.result41", "refusal.bid-range",
                "refusal.bid-tricks", "refusal.no-pass"):
        assert "annonc" in fr[key].lower() and "demand" not in fr[key].lower(), (key, fr[key])
    assert not re.search(r"[\u0660-\u0669]", ar["preset.forty-one.summary"])
    assert "13" in ar["preset.forty-one.summary"] and "41" in ar["preset.forty-one.summary"]


def test_the_arabic_words_write_their_numbers_as_the_page_does() -> None:
    """The Arabic page writes every number it works out (scores, bids, hands, the bid a
    refusal names) in the digits 0-9, isolated left to right: its fixed words do too, so
    that no sentence mixes them with the Arabic-Indic ones ("from 1 to 13, not 14")."""
    ar = catalog("ar")
    mixed = {k: v for k, v in ar.items() if re.search(r"[\u0660-\u0669\u06f0-\u06f9]", v)}
    assert mixed == {}
    assert "1" in ar["refusal.bid-range"] and "13" in ar["refusal.bid-range"]


def test_the_arabic_winner_and_par_lines_speak_to_the_reader() -> None:
    """Where the reader is on the side named, the Arabic winner and par lines say it in the
    second person ("you win", "you could have taken"), as the French ones do, not in the
    third ("they win") after the name "you". Each par line names the side first, so that a
    seat's number never runs into the count ("Computer 3 25")."""
    ar = catalog("ar")
    pars = [k for k in ar if k.startswith(("review.par_points", "review.par_tricks"))]
    assert len(pars) == 12 and all(ar[k].startswith("{names}: ") for k in pars), pars
    for key in ("status.winner", "status.winner_why", "review.par_points",
                "review.par_points.one", "review.par_tricks", "review.par_tricks.one"):
        you = key.replace(".one", "") + "_you" + (".one" if key.endswith(".one") else "")
        assert ar[you] != ar[key], key
    assert "تفوزون" in ar["status.winner_you"] and "تفوزون" in ar["status.winner_why_you"]
    assert all("لأخذتم" in ar[k] for k in ("review.par_points_you", "review.par_tricks_you"))


def test_the_french_refusals_say_what_the_rest_of_the_page_says() -> None:
    """The French refusals use the table's own words: the dealer whom everyone passed "doit
    prendre" (as the house rule says; "est pris" read as if he had taken the bid), the
    suit named "atout {suit}" (not "à {suit}"), cards not held named without "cette carte"
    (a discard can name several), and the game not "commencée" but "commencé"."""
    fr = catalog("fr")
    assert "doit prendre" in fr["refusal.bagged"] and "est pris" not in fr["refusal.bagged"]
    assert "doit prendre" in fr["value.dealer-bagged"]
    for key in ("refusal.trump-held", "refusal.trump-went-on"):
        assert "avec atout {suit}," in fr[key] and "à {suit}" not in fr[key], fr[key]
    assert "cette carte" not in fr["refusal.not-held"]
    assert fr["refusal.not-started"] == "La partie n'a pas encore commencé."
    assert "place" not in fr["refusal.away"].split(":", 1)[1]  # "reprenez-la", said once


def test_the_arabic_forty_one_par_reads_as_a_sentence() -> None:
    """The Arabic par of a partnership: the names, then the count of tricks set apart (it
    read "لأخذ أنت & الحاسوب 3 2 لمّة": the seat's number ran into the count, and a count of
    2 took the singular)."""
    ar = catalog("ar")
    for key in ("review.par_team", "review.par_team_about"):
        text = ar[key]
        assert text.startswith("{names}: ") and "لأخذ" not in text, text
        assert "{tricks} لمّة" not in text, text  # no number before a noun it must agree with


def test_the_frame_codes_the_page_words_are_the_servers() -> None:
    """Each code the page says in its own words (FRAME_CODES) is one the server sends in an
    error frame, so that a code renamed on one side fails here, not silently in a page."""
    sent = set()
    for f in (Path(__file__).resolve().parents[1] / "src" / "forties" / "web").glob("*.py"):
        sent |= set(re.findall(r'(?:error|refuse|TableError)\(\s*"([a-z-]+)"', f.read_text()))
    frame = js_list("FRAME_CODES", "table.js")
    assert frame and set(frame) <= sent, set(frame) - sent


# A seat's numbers, where a narrow seat wraps its line: the number stays with its word
# ("tricks: 1", never "tricks:" at a line's end and "1" under it; French's space before
# the colon as unbreakable as the rest).
SEAT_NUMBERS = ("table.tricks", "table.bidder", "table.bid_taken", "table.discarded")


@pytest.mark.parametrize("lang", LANGS)
def test_a_seat_number_stays_with_its_word(lang: str) -> None:
    words = catalog(lang)
    loose = [(k, words[k]) for k in SEAT_NUMBERS if re.search(r" [{:]", words[k])]
    assert not loose, f"{lang}.po: a breakable space before a number or colon in {loose}"
