"""Driving the browser client as a person would: read the page, tap what it offers."""

from __future__ import annotations

import json
import time
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from forties.cards import mask_names, mask_of, parse_card

LOCALE = Path(__file__).resolve().parents[2] / "src" / "forties" / "web" / "locale"

PHONE = {"width": 360, "height": 640}
TABLET = {"width": 768, "height": 1024}
DESKTOP = {"width": 1920, "height": 1080}



# A JavaScript function, for the scripts the tests run in a page: the words of ``root``'s
# text whose letters sit on more than one line, that is words broken inside (measured where
# they stand, not guessed from the style); a name may break after its hyphen ("Marie-" /
# "Christine"), as on paper.
BROKEN_WORDS_JS = """function brokenWords(root) {
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.textContent.matchAll(/[^\\s-]+-?/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0)
        .map((q) => Math.round(q.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""

def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.load(r)


class Held:
    """``page``'s requests for ``pattern``, held back until ``release``."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.page, self.pattern = page, pattern
        self.routes: list[Any] = []
        page.route(pattern, lambda route: self.routes.append(route))

    def asked(self) -> None:
        """Wait until the page has asked (a few seconds at most)."""
        for _ in range(300):
            if self.routes:
                return
            self.page.wait_for_timeout(20)
        raise AssertionError(f"the page never asked for {self.pattern}")

    def release(self) -> None:
        """Once the page has asked, let its requests go."""
        self.asked()
        while self.routes:
            self.routes.pop().continue_()


def new_page(browser: Any, viewport: dict[str, int], lang: str = "en",
             zone: str | None = None) -> Any:
    """A page of a new context (``zone``: its time zone; none: the machine's)."""
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 700,
                              locale={"en": "en-US", "fr": "fr-CA", "ar": "ar-SY"}[lang],
                              **({"timezone_id": zone} if zone else {}))
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def play_now(page: Any, server: str, preset: str = "merrimack-valley", level: str = "random",
             learn: bool = False) -> None:
    """From the home page, Play now: ``preset`` against computers of ``level`` (``learn``:
    the first game that teaches), until the table's page is ready."""
    page.goto(server + "/")
    wait_ready(page)
    page.select_option("#play-preset", preset)
    page.select_option("#play-level", level)
    if learn:
        page.check("#play-learn")
    page.click("#play")
    page.wait_for_url("**/t/**")
    wait_ready(page)


def wait_ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1']", state="attached")


def body(page: Any, key: str) -> str:
    return str(page.evaluate(f"document.body.dataset[{key!r}] || ''"))


def mine(page: Any) -> bool:
    return body(page, "mine") == "true"


def hand_cards(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.dataset.card)"))


def wait_moved(page: Any, version: str, timeout: float = 30.0) -> None:
    """Until the page shows a newer position (or a refusal); after ``timeout`` seconds, fail
    saying what the page shows."""
    until(page, "v => document.body.dataset.version !== v"
          " || document.getElementById('refusal').textContent !== ''",
          "a newer position or a refusal after the tap", arg=version, timeout=timeout)


# What a page shows at one moment, read in one go (the page may move on between two reads):
# its phase and version, whether it is its turn, and the actions its buttons offer. A table
# still waiting for its players is in its first auction already, the host's turn, with
# nothing to tap until it starts: that is no turn yet.
SEEN_JS = """() => { const d = document.body.dataset, w = document.getElementById('waiting');
  return {phase: d.phase || '', version: d.version || '',
          mine: d.mine === 'true' && !(w && !w.hidden),
          actions: [...document.querySelectorAll('#actions button.act')]
            .map((b) => b.dataset.action).filter(Boolean)}; }"""


def act(page: Any, bid: str | None = None, bidder: bool = False) -> None:
    """Take this seat's turn through the page: a pass or a low bid (or the highest bid when
    ``bidder``), the first suit, a discard down to five, the first card it may play; then
    wait until the page shows the next position (or a refusal). A page that is not (or no
    longer) at its turn is left alone: the caller looks again."""
    from playwright.sync_api import TimeoutError as PageTimeout

    seen = page.evaluate(SEEN_JS)
    if not seen["mine"]:
        return
    version = seen["version"]
    try:
        _tap(page, seen, bid, bidder)
    except PageTimeout:
        if body(page, "version") != version:
            return  # the position changed while the page was read: the caller looks again
        raise AssertionError(f"nothing to tap at the page's turn: {where([page])}") from None
    wait_moved(page, version)


def _tap(page: Any, seen: dict[str, Any], bid: str | None, bidder: bool) -> None:
    """Tap what ``act`` chose, from what the page showed (``seen``)."""
    phase, actions = seen["phase"], seen["actions"]

    def tap(action: str) -> None:
        page.click(f"#actions button[data-action={json.dumps(action)}]", timeout=10000)

    passes = [a for a in actions if a.endswith(" pass")]
    if phase == "auction":
        wanted = [a for a in actions if bid is not None and a.endswith(f" bid {bid}")]
        if not actions:
            raise AssertionError(f"no bid offered at the page's turn: {where([page])}")
        tap(wanted[0] if wanted else actions[-1] if bidder else passes[0] if passes
            else actions[0])
    elif phase == "draw":
        button = page.locator("#discard")
        cards = page.locator("#hand button.card")
        k = 0
        while button.get_attribute("aria-disabled", timeout=10000) == "true" \
                and k < cards.count():
            cards.nth(k).click(timeout=10000)
            k += 1
        button.click(timeout=10000)
    elif phase == "play":
        page.locator("#hand button.card.legal").first.click(timeout=10000)
    elif phase == "call":
        tap(next(a for a in actions if a.endswith(" none")))
    elif passes:
        tap(passes[0])
    else:
        page.locator("#actions button.act").first.click(timeout=10000)


def where(pages: list[Any]) -> list[str]:
    """What each page shows, for a test that waited too long: its phase, version and turn,
    its connection, and the status and refusal lines."""
    out = []
    for p in pages:
        try:
            out.append(p.evaluate(
                "(() => { const d = document.body.dataset, e = (x) => {"
                " const n = document.getElementById(x); return n ? n.textContent : ''; };"
                " return `${d.phase} v${d.version} to_act=${d.toAct} you=${d.you}"
                " mine=${d.mine} conn=${d.conn} status=${e('status')}"
                " refusal=${e('refusal')}`; })()"))
        except Exception as e:  # a page gone: say so, the other pages still count
            out.append(f"unreadable: {type(e).__name__}")
    return out


def until(page: Any, js: str, what: str, arg: Any = None, timeout: float = 15.0) -> None:
    """Wait until the JavaScript ``js`` (a function of ``arg``, or an expression) holds in
    ``page``; after ``timeout`` seconds, fail saying ``what`` was expected and what the
    page shows."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        page.wait_for_function(js, arg=arg, timeout=timeout * 1000)
    except PageTimeout:
        raise AssertionError(f"expected {what} within {timeout} s; the page shows "
                             f"{where([page])}") from None


def drawn(page: Any) -> None:
    """Return once ``page`` has drawn a frame after this call: its layout, and whatever its
    resize observers changed, have settled."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame("
                  "() => requestAnimationFrame(() => done(null))))")


def play_until(pages: list[Any], done: Any, limit: float = 120.0, **how: Any) -> None:
    """Let whichever page has the turn act until ``done()`` is true. A page (or a hall's
    table frame) that moves on to its next table while it is read is looked at again,
    as a person would: ``done()`` may hold by then."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"the hand did not finish: {where(pages)}"
        try:
            for p in pages:
                if mine(p):
                    act(p, **how)
                    break
            else:
                time.sleep(0.05)
        except Error as e:
            if "context was destroyed" not in str(e):
                raise
            time.sleep(0.05)


def over(page: Any) -> bool:
    return body(page, "phase") in ("hand-over", "game-over")


def measure_targets(page: Any) -> list[str]:
    """Every visible control smaller than 44 x 44 CSS pixels (a checkbox counts by its label)."""
    return list(page.evaluate("""() => {
      const small = [];
      const sel = 'button, a[href], select, input, summary, [role=button]';
      for (const e of document.querySelectorAll(sel)) {
        if (e.type === 'hidden') continue;
        const target = e.type === 'checkbox' ? (e.closest('label') || e) : e;
        const r = target.getBoundingClientRect();
        const style = getComputedStyle(target);
        if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
        if (r.width < 44 || r.height < 44) {
          small.push(`${e.tagName} ${e.id || e.textContent.trim().slice(0, 20)} ` +
                     `${Math.round(r.width)}x${Math.round(r.height)}`);
        }
      }
      return small;
    }"""))


def screenshot(page: Any, folder: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(folder / f"web-{name}.png"), full_page=full)


# ----- refusals as the pages say them -------------------------------------------------------


@cache
def catalog(lang: str) -> dict[str, str]:
    with open(LOCALE / f"{lang}.po", "rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id}


def card_words(lang: str, card: str) -> str:
    """A card as the pages name it ("Three of Spades", "trois de pique", "ثلاثة بستوني")."""
    words = catalog(lang)
    return words["card.name"].format(rank=words[f"rank.{card[0]}"],
                                     suit=words[f"suit.{card[1]}"])


# The sentences of the refusals these tests meet, written out in each language ({suit}: the
# suit's word as the pages write it, {cards}: the cards named as above, in the engine's order)
FOLLOW = {"en": "You must follow {suit}: you hold {cards}.",
          "fr": "Il faut fournir à {suit} : vous avez {cards}.",
          "ar": "يجب أن تلعب {suit}: معك {cards}."}
FOLLOW_OR_TRUMP = {"en": "You must follow {suit} or trump: you hold {cards}.",
                   "fr": "Il faut fournir à {suit} ou couper : vous avez {cards}.",
                   "ar": "يجب أن تلعب {suit} أو تقطع بطرنيب: معك {cards}."}
TRUMP = {"en": "You must play a trump: you hold {cards}.",
         "fr": "Il faut fournir atout : vous avez {cards}.",
         "ar": "يجب أن تلعب طرنيبًا: معك {cards}."}
SEP = {"en": ", ", "fr": ", ", "ar": "، "}


def refusal_words(lang: str, sentence: dict[str, str], cards: list[str],
                  suit: str = "") -> str:
    """One of the sentences above in ``lang``, with ``cards`` (put in the engine's order)."""
    ordered = mask_names(mask_of(parse_card(c) for c in cards))
    return sentence[lang].format(
        suit=catalog(lang)[f"suit.{suit}"] if suit else "",
        cards=SEP[lang].join(card_words(lang, c) for c in ordered))


def refusal(page: Any) -> str:
    """The refusal the page shows, without the marks that isolate a name in a line."""
    return str(page.text_content("#refusal")).replace("\u2068", "").replace("\u2069", "")
