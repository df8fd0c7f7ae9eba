# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Checks a replay page and its SVG picture (tools/replay.c, replay_svg.c)
by decoding them as a reader would, independently of the C and JS code:

  html: the meta, the base64 LZ4 data and every section (docs/formats.md):
        the check hash, every agent's path track (one from the first frame
        it is there), the layers of the polygons and the agents, the extent,
        the viewer's colour modes and layer choice.
  svg:  title, legend counts against the agents drawn (by state and by
        speed), layers listed, obstacles carved and painted told apart, the
        scale bar's length against the map's scale, the map centred in its
        box.

    replay_check.py PAGE.html PICTURE.svg [--carved N] [--painted N]
                    [--layers 0,1] [--min-agent-layers N]
    replay_check.py PAGE.html --print-path COLUMN
Standard library only. Exit 0 when every check holds, 1 otherwise.
"""
import base64
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print('FAIL: ' + what)
    return ok


def lz4_block(src, size):
    out = bytearray()
    i = 0
    while i < len(src):
        token = src[i]
        i += 1
        n = token >> 4
        if n == 15:
            while True:
                b = src[i]
                i += 1
                n += b
                if b != 255:
                    break
        out += src[i:i + n]
        i += n
        if i >= len(src):
            break
        offset = src[i] | (src[i + 1] << 8)
        i += 2
        m = token & 15
        if m == 15:
            while True:
                b = src[i]
                i += 1
                m += b
                if b != 255:
                    break
        m += 4
        start = len(out) - offset
        if offset == 0 or start < 0:
            raise ValueError('lz4: bad match offset')
        for k in range(m):  # may overlap
            out.append(out[start + k])
    if len(out) != size:
        raise ValueError('lz4: %d bytes, expected %d' % (len(out), size))
    return bytes(out)


class Reader:
    def __init__(self, data):
        self.b = data
        self.p = 0

    def u8(self):
        v = self.b[self.p]
        self.p += 1
        return v

    def i16(self):
        v = struct.unpack_from('<h', self.b, self.p)[0]
        self.p += 2
        return v

    def u16(self):
        v = struct.unpack_from('<H', self.b, self.p)[0]
        self.p += 2
        return v

    def u32(self):
        v = struct.unpack_from('<I', self.b, self.p)[0]
        self.p += 4
        return v

    def vu(self):
        v, shift = 0, 0
        while True:
            b = self.u8()
            v |= (b & 127) << shift
            shift += 7
            if not b & 128:
                return v


def check_html(path, expect_layers, min_agent_layers):
    text = open(path, encoding='utf-8').read()
    meta = json.loads(re.search(r'<script id="meta" type="application/json">(.*?)</script>',
                                text, re.S).group(1))
    data = re.search(r'<script id="data" type="application/octet-stream">(.*?)</script>',
                     text, re.S).group(1)
    packed = base64.b64decode(''.join(data.split()))
    check(meta['version'] == 2, 'html: version %s, expected 2' % meta['version'])
    check(len(packed) == meta['packedBytes'], 'html: packed size')
    raw = lz4_block(packed, meta['rawBytes']) if meta['rawBytes'] > 0 else b''
    r = Reader(raw)
    unit, origin = meta['unit'], meta['origin']
    C, F = meta['columns'], meta['frames']
    marks = [0]

    def section_end(name):
        marks.append(r.p)
        k = len(marks) - 2
        check(marks[-1] - marks[-2] == meta['sections'][k],
              'html: section %s is %d bytes, the meta says %d'
              % (name, marks[-1] - marks[-2], meta['sections'][k]))

    poly_layers, lo, hi = set(), [math.inf, math.inf], [-math.inf, -math.inf]
    for _ in range(meta['polys']):
        n, layer, _y = r.u8(), r.u8(), r.i16()
        poly_layers.add(layer)
        for _k in range(n):
            x, z = r.i16(), r.i16()
            lo = [min(lo[0], x), min(lo[1], z)]
            hi = [max(hi[0], x), max(hi[1], z)]
    section_end('mesh')
    for _ in range(meta['offmesh']):
        r.i16(), r.i16(), r.i16(), r.i16(), r.u8()
    section_end('offmesh')
    for _ in range(C):
        r.u32(), r.u32(), r.u16()
    section_end('agents')
    state = [[0] * C for _ in range(F)]
    layer = [[0] * C for _ in range(F)]
    pos = [[[0, 0, 0] for _ in range(C)] for _ in range(F)]
    for f in range(F):
        for c in range(C):
            state[f][c] = r.u8() ^ (state[f - 1][c] if f > 0 else 0)
        for c in range(C):
            layer[f][c] = r.u8() ^ (layer[f - 1][c] if f > 0 else 0)
        for axis in (0, 2, 1):
            for c in range(C):
                z = r.vu()
                d = -((z + 1) >> 1) if z & 1 else z >> 1
                before = pos[f - 1][c][axis] if f > 0 else 0
                pos[f][c][axis] = ((before + d + 32768) & 0xffff) - 32768
    section_end('frames')
    first_path, last_path = [None] * C, [None] * C
    records = 0
    for f in range(F):
        n = r.vu()
        c = 0
        for _ in range(n):
            c += r.vu()
            if not check(c < C, 'html: a path record of column %d of %d' % (c, C)):
                return
            head = r.u8()
            n, reuse, same_target = head & 7, (head >> 3) & 7, head & 64
            start = r.u8() if reuse > 0 else 0
            before = last_path[c]
            check(n <= 4 and reuse <= n and head & 128 == 0, 'html: path head %#x' % head)
            if (reuse or same_target) and not check(
                    before is not None and start + reuse <= len(before[0]),
                    'html: column %d frame %d refers to a path it has not' % (c, f)):
                return
            corners = before[0][start:start + reuse] if reuse else []
            corners += [(r.i16(), r.i16()) for _k in range(n - reuse)]
            target = before[1] if same_target else (r.i16(), r.i16())
            last_path[c] = (corners, target)
            if first_path[c] is None:
                first_path[c] = f
            c += 1
            records += 1
    meta['_last_path'] = last_path
    section_end('paths')
    for _ in range(F):
        r.p += 3 * 4 + 5 * 4
    section_end('stats')
    for _ in range(F):
        r.vu()
    section_end('obstacle index')
    r.p += meta['sections'][7]
    section_end('obstacle sets')
    check(r.p == len(raw), 'html: %d of %d bytes read' % (r.p, len(raw)))

    h = 0
    for f in range(F):
        for c in range(C):
            for a in range(3):
                h = (h * 31 + pos[f][c][a]) & 0xffffffff
            h = (h * 31 + state[f][c]) & 0xffffffff
            h = (h * 31 + layer[f][c]) & 0xffffffff
    check(h == meta['check'], 'html: check %d, the meta says %d' % (h, meta['check']))
    check(records == meta['pathRecords'], 'html: %d path records, the meta says %d'
          % (records, meta['pathRecords']))
    check(not meta['pathsTruncated'], 'html: paths truncated')
    # Every agent has a path track from the first frame it is in.
    for c in range(C):
        present = [f for f in range(F) if state[f][c] != 255]
        if present:
            check(first_path[c] is not None and first_path[c] <= present[0],
                  'html: column %d is there from frame %d, its first path at %s'
                  % (c, present[0], first_path[c]))
    check(meta['layers'] == sorted(poly_layers),
          'html: layers %s, the polygons are on %s' % (meta['layers'], sorted(poly_layers)))
    if expect_layers is not None:
        check(meta['layers'] == expect_layers,
              'html: layers %s, expected %s' % (meta['layers'], expect_layers))
    agent_layers = {layer[f][c] for f in range(F) for c in range(C) if state[f][c] != 255}
    check(len(agent_layers) >= min_agent_layers, 'html: agents seen on %s, expected %d layers'
          % (sorted(agent_layers), min_agent_layers))
    check(agent_layers <= set(meta['layers']),
          'html: agents on layers %s, not all of %s' % (sorted(agent_layers), meta['layers']))
    if meta['polys'] > 0:
        ext = [origin[0] + lo[0] * unit, origin[2] + lo[1] * unit,
               origin[0] + hi[0] * unit, origin[2] + hi[1] * unit]
        check(all(abs(a - b) < 1e-3 for a, b in zip(ext, meta['extent'])),
              'html: extent %s, the polygons span %s' % (meta['extent'], ext))
    # The viewer offers the colour modes and the layer choice.
    for needle in ['<select id="colour"', 'value="speed"', 'value="still"', '<select id="layer"',
                   "'stopped (under 0.1 m/s)'", "'in place 60 s or more'", 'pathAt(']:
        check(needle in text, 'html: the viewer lacks %s' % needle)
    print('html: %d columns x %d frames, %d path records (%d bytes raw, %.1f a record), '
          'layers %s' % (C, F, records, meta['sections'][4],
                         meta['sections'][4] / max(1, records), meta['layers']))
    return meta


def floats(s):
    return [float(v) for v in re.findall(r'-?\d+(?:\.\d+)?(?:e-?\d+)?', s)]


def check_svg(path, meta, expect_carved, expect_painted):
    ns = {'s': 'http://www.w3.org/2000/svg'}
    root = ET.parse(path).getroot()
    vb = floats(root.get('viewBox'))
    check(vb[:2] == [0, 0] and vb[2] == float(root.get('width')) and
          vb[3] == float(root.get('height')), 'svg: viewBox %s against width, height' % vb)
    title = root.find('s:title', ns)
    shown_title = root.find(".//s:text[@id='title']", ns)
    check(title is not None and title.text, 'svg: no <title>')
    check(shown_title is not None and title is not None and
          shown_title.text.startswith(title.text), 'svg: the title is not shown')
    box = root.find(".//s:rect[@id='map-box']", ns)
    bx, by = float(box.get('x')), float(box.get('y'))
    bw, bh = float(box.get('width')), float(box.get('height'))
    check(bx >= 0 and by >= 0 and bx + bw <= vb[2] and by + bh <= vb[3],
          'svg: the map box is outside the picture')
    g = root.find(".//s:g[@id='map']", ns)
    a, _b, _c, d, e, f = floats(g.get('transform'))
    check(a == d and a > 0, 'svg: the map scale %s %s' % (a, d))
    lo, hi = [math.inf, math.inf], [-math.inf, -math.inf]
    for poly in root.findall(".//s:g[@id='mesh']/s:polygon", ns):
        v = floats(poly.get('points'))
        for x, z in zip(v[0::2], v[1::2]):
            lo = [min(lo[0], x), min(lo[1], z)]
            hi = [max(hi[0], x), max(hi[1], z)]
    if lo[0] <= hi[0]:
        # Centred: the mesh's centre lands on the box's centre, and it fits.
        cx, cz = a * (lo[0] + hi[0]) / 2 + e, a * (lo[1] + hi[1]) / 2 + f
        check(abs(cx - (bx + bw / 2)) < 0.5 and abs(cz - (by + bh / 2)) < 0.5,
              'svg: the mesh centre is at %.1f, %.1f, the box centre at %.1f, %.1f'
              % (cx, cz, bx + bw / 2, by + bh / 2))
        check(a * lo[0] + e >= bx - 0.5 and a * hi[0] + e <= bx + bw + 0.5 and
              a * lo[1] + f >= by - 0.5 and a * hi[1] + f <= by + bh + 0.5,
              'svg: the mesh does not fit its box')
    # The legend's counts against the agents drawn.
    rows = {}
    legend = root.find(".//s:g[@id='legend']", ns)
    texts = legend.findall('s:text', ns)
    for t1, t2 in zip(texts, texts[1:]):
        if t2.get('text-anchor') == 'end' and t1.get('text-anchor') != 'end':
            rows[t1.text] = int(t2.text)
    state_colours = [r.get('fill') for r in legend.findall("s:rect[@class='state']", ns)]
    check(len(state_colours) == 7, 'svg: %d state swatches' % len(state_colours))
    agents = root.findall(".//s:g[@id='agents']/s:circle", ns)
    check(rows.get('Agents') == len(agents),
          'svg: the legend says %s agents, %d drawn' % (rows.get('Agents'), len(agents)))
    state_rows = [t.text for t in texts if t.get('text-anchor') != 'end'][1:8]
    for name, colour in zip(state_rows, state_colours):
        drawn = sum(1 for c in agents if c.get('fill') == colour)
        check(rows.get(name) == drawn, 'svg: legend %s %s, %d drawn in %s'
              % (name, rows.get(name), drawn, colour))
    speed = [rows.get(k) for k in ['stopped (under 0.1 m/s)', '0.1 to 0.5 m/s', '0.5 to 1 m/s',
                                   '1 to 1.5 m/s', '1.5 m/s and faster']]
    check(None not in speed and sum(speed) == len(agents),
          'svg: speed counts %s for %d agents' % (speed, len(agents)))
    layers = sorted(int(t.text.split()[1]) for t in texts if (t.text or '').startswith('layer '))
    if meta is not None:
        check(layers == meta['layers'], 'svg: legend layers %s, the page has %s'
              % (layers, meta['layers']))
    for name in ['obstacle (carved)', 'obstacle (painted area)', 'off-mesh link']:
        check(any(t.text == name for t in texts), 'svg: the legend lacks %s' % name)
    # Carved and painted obstacles look different.
    carved = root.findall(".//s:g[@id='obstacles']/*[@class='carved']", ns)
    painted = root.findall(".//s:g[@id='obstacles']/*[@class='painted']", ns)
    looks = {(o.get('fill'), o.get('stroke'), o.get('stroke-dasharray')) for o in carved}
    looks_p = {(o.get('fill'), o.get('stroke'), o.get('stroke-dasharray')) for o in painted}
    check(len(looks) <= 1 and len(looks_p) <= 1 and not (looks & looks_p),
          'svg: obstacle looks %s (carved), %s (painted)' % (looks, looks_p))
    if painted:
        check(painted[0].get('fill') == 'url(#paint)' and
              root.find(".//s:pattern[@id='paint']", ns) is not None,
              'svg: painted obstacles are not hatched')
    if expect_carved is not None:
        check(len(carved) == expect_carved, 'svg: %d carved, expected %d'
              % (len(carved), expect_carved))
    if expect_painted is not None:
        check(len(painted) == expect_painted, 'svg: %d painted, expected %d'
              % (len(painted), expect_painted))
    # The scale bar: a round number of metres, as long as the map scale says.
    scale = root.find(".//s:g[@id='scale']", ns)
    metres, pixels = float(scale.get('data-metres')), float(scale.get('data-pixels'))
    mantissa = metres / 10 ** math.floor(math.log10(metres))
    check(any(abs(mantissa - k) < 1e-9 for k in (1, 2, 5)), 'svg: a scale of %g m' % metres)
    check(abs(pixels - metres * a) < 0.01, 'svg: %g m drawn %g px at %g px/m'
          % (metres, pixels, a))
    bar = floats(scale.find('s:line', ns).get('x2'))[0] - floats(
        scale.find('s:line', ns).get('x1'))[0]
    check(abs(bar - pixels) < 0.01, 'svg: the bar is %g px, not %g' % (bar, pixels))
    check(80 <= pixels <= 400, 'svg: the bar is %g px long' % pixels)
    label = scale.find('s:text', ns).text
    check(label == '%g m' % metres, 'svg: the scale says %r' % label)
    print('svg: %d agents, legend %s, %d carved and %d painted obstacles, scale %g m'
          % (len(agents), rows, len(carved), len(painted), metres))


def main(argv):
    args, opts = [], {}
    i = 1
    while i < len(argv):
        if argv[i].startswith('--'):
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) == 1 and 'print-path' in opts:
        # The last recorded path of a column, as the page's selection panel
        # words it (viewer_test.sh compares the two).
        meta = check_html(args[0], None, 0)
        corners, target = meta['_last_path'][int(opts['print-path'])]
        u, o = meta['unit'], meta['origin']
        print('%d corners ahead; target %.2f, %.2f'
              % (len(corners), o[0] + target[0] * u, o[2] + target[1] * u))
        return 1 if FAILURES else 0
    if len(args) != 2:
        print(__doc__)
        return 2
    expect_layers = [int(v) for v in opts['layers'].split(',')] if 'layers' in opts else None
    meta = check_html(args[0], expect_layers, int(opts.get('min-agent-layers', '0')))
    check_svg(args[1], meta, int(opts['carved']) if 'carved' in opts else None,
              int(opts['painted']) if 'painted' in opts else None)
    if FAILURES:
        print('%d checks failed' % len(FAILURES))
        return 1
    print('OK')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
