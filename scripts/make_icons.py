"""Draws the app's icons once (committed under static/icons/): the PNGs of the web app manifest
(192 and 512 px, a maskable 512 px with its safe zone), the home-screen icon of iOS (180 px) and
favicon.ico (16, 32 and 48 px PNGs inside an ICO). Pure Python (zlib), so no image library is
installed for a drawing that changes once in a long while: python scripts/make_icons.py"""

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
INK = (31, 26, 20)  # the top bar's ink (static/css/chronicle.css --ink)
PAPER = (247, 241, 227)  # --paper
GOLD = (201, 150, 43)  # a lighter gold than --gold: read on the ink


def png(size: int, pixels) -> bytes:
    rows = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # RGBA, 8 bits
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def mix(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def coverage(x: float, y: float, size: int, inside) -> float:
    """Anti-aliased coverage of one pixel (4x4 samples)."""
    hits = sum(
        inside((x + (i + 0.5) / 4) / size, (y + (j + 0.5) / 4) / size) for i in range(4) for j in range(4)
    )
    return hits / 16


def draw(size: int, maskable: bool) -> bytes:
    """A gold "C" ring with a crown's three points on an ink field: a rounded square, or the full
    square for a maskable icon, its drawing inside the central 80 % safe zone."""
    scale = 0.62 if maskable else 0.8

    def field(u, v):
        if maskable:
            return True
        r = 0.18
        dx, dy = max(abs(u - 0.5) - (0.5 - r), 0), max(abs(v - 0.5) - (0.5 - r), 0)
        return dx * dx + dy * dy <= r * r

    def mark(u, v):
        x, y = (u - 0.5) / scale, (v - 0.5) / scale  # -0.5..0.5 inside the drawing
        d = math.hypot(x, y)
        angle = math.degrees(math.atan2(y, x))
        ring = 0.27 <= d <= 0.4 and not (-40 <= angle <= 40)  # the "C", open to the right
        peak = 0.1 - abs(((x + 0.2) % 0.2) - 0.1)  # 0 at the three points, 0.1 between them
        crown = -0.5 <= y <= -0.36 and abs(x) <= 0.2 and (y + 0.5) >= 0.9 * peak
        return ring or crown

    pixels = []
    for row in range(size):
        line = []
        for col in range(size):
            f = coverage(col, row, size, field)
            m = coverage(col, row, size, mark)
            colour = mix(INK, GOLD, m)
            line.append((*colour, round(255 * f)))
        pixels.append(line)
    return png(size, pixels)


def ico(images: dict[int, bytes]) -> bytes:
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries, data = b"", b""
    for size, blob in images.items():
        entries += struct.pack(
            "<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(blob), offset + len(data)
        )
        data += blob
    return head + entries + data


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(draw(size, maskable=False))
    (OUT / "icon-maskable-512.png").write_bytes(draw(512, maskable=True))
    (OUT / "apple-touch-icon.png").write_bytes(draw(180, maskable=True))
    (OUT / "favicon.ico").write_bytes(ico({s: draw(s, maskable=False) for s in (16, 32, 48)}))


if __name__ == "__main__":
    main()
