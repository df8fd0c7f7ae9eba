# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Checks a screenshot of the replay viewer: inside the canvas (left of the
side panel, below the toolbar) there must be navmesh pixels (muted, light
colours) and agent pixels (the viewer's saturated state colours, which
nothing else on the canvas uses). Standard library only (zlib + struct).

    png_check.py SCREENSHOT.png
"""
import struct
import sys
import zlib

# tools/viewer_template.h: walking, requested, arrived, blocked, offmesh, lost.
AGENT_COLOURS = [(0x00, 0xC8, 0xFF), (0xFF, 0xD4, 0x00), (0x00, 0xE0, 0x60),
                 (0xFF, 0x2A, 0x2A), (0xFF, 0x00, 0xFF), (0xFF, 0x88, 0x00)]
BACKGROUND = (0x15, 0x18, 0x1C)
SIDE_PANEL = 300  # px at the right (270 + padding + border), left out
TOOLBAR = 48      # px at the top, left out


def read_png(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError('unsupported PNG: depth %d colour %d interlace %d'
                         % (depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = read_png(sys.argv[1])
    near = lambda p, q, tol: all(abs(p[k] - q[k]) <= tol for k in range(3))
    mesh = agents = background = total = 0
    seen = set()
    for y in range(TOOLBAR, height):
        line = rows[y]
        for x in range(0, max(0, width - SIDE_PANEL)):
            p = tuple(line[x * bpp:x * bpp + 3])
            total += 1
            if near(p, BACKGROUND, 3):
                background += 1
                continue
            hit = next((k for k, q in enumerate(AGENT_COLOURS) if near(p, q, 10)), None)
            if hit is not None:
                agents += 1
                seen.add(hit)
            elif max(p) - min(p) < 70 and 80 <= max(p) <= 235:
                mesh += 1
    print('png_check: %dx%d, canvas region %d px: mesh %d, agents %d (%d colours), '
          'background %d' % (width, height, total, mesh, agents, len(seen), background))
    ok = True
    if mesh < total * 0.10:
        print('FAIL: too few navmesh pixels')
        ok = False
    if agents < 300:
        print('FAIL: too few agent pixels')
        ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
