"""Regenerate the viewer screenshots under docs/: the Arsuf board at the start and at the end
of a game recorded the way the browser tests record one (random legal commands over HTTP,
fixed seed), on a 1280×800 window and on a 390×844 phone.

    .venv/bin/python -m tests.viewer.screenshots
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import httpx

from tests.conftest import start_server
from tests.viewer.conftest import ARSUF_SEATS, CHROMIUM, CHROMIUM_ARGS, PHONE, WIDE, create, play_random

DOCS = Path(__file__).resolve().parents[2] / "docs"


def main() -> int:
    from playwright.sync_api import sync_playwright

    DOCS.mkdir(exist_ok=True)
    server = start_server(Path(tempfile.mkdtemp()))
    try:
        with httpx.Client(base_url=server.url, timeout=10) as api:
            game = create(api, "saladin", ARSUF_SEATS, "arsuf", seed="a1" * 32)
            head = play_random(api, game, random.Random(1191))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            shots = [("start", 1, WIDE, ""), ("end", head, WIDE, ""), ("start", 1, PHONE, "-phone"),
                     ("end", head, PHONE, "-phone")]
            for name, version, viewport, suffix in shots:
                page = browser.new_page(viewport=viewport, device_scale_factor=1)
                page.goto(f"{server.url}/viewer/{game['id']}?v={version}")
                page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
                out = DOCS / f"viewer-arsuf-{name}{suffix}.png"
                page.screenshot(path=str(out), full_page=True)
                print(out.relative_to(DOCS.parent))
                page.close()
            browser.close()
    finally:
        server.process.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
