"""Draw the web app's icons (src/forties/web/static/icons/): two playing cards on the
table's green felt, the front one with a red heart. Pure Python (zlib for the PNG), so
that the pictures can be drawn again exactly: ``python deploy/draw_icons.py``.

icon-192.png and icon-512.png have rounded corners (the icon as it stands);
icon-maskable-512.png fills the square, its cards inside the middle 80 % (a launcher cuts
it to its own shape). icon.svg is the same picture as a vector, for the page's tab."""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "forties" / "web" / "static" / "icons"
FELT = (10, 61, 44)
CARD = (255, 255, 255)
EDGE = (17, 17, 17)
RED = (200, 16, 46)

# Each card: its middle (x, y), half width and height, turn in degrees, in a unit square.
CARDS = [((0.40, 0.50), (0.17, 0.25), -14.0), ((0.60, 0.52), (0.17, 0.25), 10.0)]


def in_card(x: float, y: float, card: tuple, scale: float) -> tuple[bool, bool]:
    """Whether (x, y) is on the card, and whether on its edge (a rounded rectangle)."""
    (cx, cy), (hw, hh), turn = card
    hw, hh = hw * scale, hh * scale
    a = math.radians(turn)
    dx, dy = x - (0.5 + (cx - 0.5) * scale), y - (0.5 + (cy - 0.5) * scale)
    u, v = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
    r = 0.035 * scale
    qx, qy = max(abs(u) - (hw - r), 0.0), max(abs(v) - (hh - r), 0.0)
    outside = math.hypot(qx, qy) - r + min(max(abs(u) - hw, abs(v) - hh), 0.0)
    return outside <= 0, outside > -0.012 * scale


def in_heart(x: float, y: float, card: tuple, scale: float) -> bool:
    (cx, cy), _, turn = card
    a = math.radians(turn)
    dx, dy = x - (0.5 + (cx - 0.5) * scale), y - (0.5 + (cy - 0.5) * scale)
    u, v = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
    s = 0.085 * scale
    px, py = u / s, -(v / s) + 0.15
    return (px * px + py * py - 1) ** 3 - px * px * py ** 3 <= 0


def colour(x: float, y: float, rounded: bool, scale: float) -> tuple[int, int, int] | None:
    if rounded:  # the corners cut round (transparent)
        r = 0.18
        qx, qy = max(abs(x - 0.5) - (0.5 - r), 0.0), max(abs(y - 0.5) - (0.5 - r), 0.0)
        if math.hypot(qx, qy) > r:
            return None
    out = FELT
    for card in CARDS:
        on, edge = in_card(x, y, card, scale)
        if on:
            out = EDGE if edge else CARD
    if in_card(x, y, CARDS[-1], scale)[0] and in_heart(x, y, CARDS[-1], scale):
        out = RED
    return out


def png(size: int, rounded: bool, scale: float) -> bytes:
    """The picture as an RGBA PNG of ``size`` pixels, each the mean of 3 x 3 samples."""
    k = 3
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            acc = [0, 0, 0, 0]
            for sj in range(k):
                for si in range(k):
                    c = colour((i + (si + 0.5) / k) / size, (j + (sj + 0.5) / k) / size,
                               rounded, scale)
                    if c is not None:
                        acc[0] += c[0]
                        acc[1] += c[1]
                        acc[2] += c[2]
                        acc[3] += 255
            n = k * k
            covered = acc[3] // 255
            if covered:
                row += bytes([acc[0] // covered, acc[1] // covered, acc[2] // covered,
                              acc[3] // n])
            else:
                row += bytes(4)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    head = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def svg() -> str:
    def card(c: tuple, heart: bool) -> str:
        (cx, cy), (hw, hh), turn = c
        x, y, w, h = (cx - hw) * 100, (cy - hh) * 100, hw * 200, hh * 200
        out = (f'<g transform="rotate({turn} {cx * 100:.1f} {cy * 100:.1f})">'
               f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3.5" '
               f'fill="#fff" stroke="#111" stroke-width="1.2"/>')
        if heart:
            out += (f'<path transform="translate({cx * 100:.1f} {cy * 100:.1f}) scale(0.17)" '
                    'fill="#c8102e" d="M0 40C-28 18 -48 0 -48 -24C-48 -42 -35 -52 -21 -52'
                    'C-10 -52 -3 -45 0 -36C3 -45 10 -52 21 -52C35 -52 48 -42 48 -24'
                    'C48 0 28 18 0 40Z"/>')
        return out + "</g>"

    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<rect width="100" height="100" rx="18" fill="#0a3d2c"/>'
            + card(CARDS[0], False) + card(CARDS[1], True) + "</svg>\n")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon-192.png").write_bytes(png(192, True, 1.0))
    (OUT / "icon-512.png").write_bytes(png(512, True, 1.0))
    (OUT / "icon-maskable-512.png").write_bytes(png(512, False, 0.8))
    (OUT / "icon.svg").write_text(svg())


if __name__ == "__main__":
    main()
