# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Makes the self-contained viewer: the template with the module's code,
the wasm (base64) and the level's OBJ text inlined, so the page needs no
server and no network (file:// pages may not fetch or import modules).
usage: inline_viewer.py TEMPLATE WAYFARER_JS WASM LEVEL_OBJ OUT"""
import base64
import sys

template, module, wasm, level, out = sys.argv[1:6]
page = open(template, encoding="utf-8").read()
parts = {
    "@WAYFARER_JS@": open(module, encoding="utf-8").read(),
    "@WASM_BASE64@": base64.b64encode(open(wasm, "rb").read()).decode("ascii"),
    "@LEVEL_OBJ@": open(level, encoding="utf-8").read(),
}
for key, value in parts.items():
    if page.count(key) != 1:
        sys.exit(f"inline_viewer: {template} must hold {key} once")
    if "</script" in value.lower():
        sys.exit(f"inline_viewer: {key} would end its <script> early")
for key, value in parts.items():
    page = page.replace(key, value)
open(out, "w", encoding="utf-8").write(page)
