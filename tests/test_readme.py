"""Issue 18: "The README's commands work as written." The README's shell walk-throughs (the
`json` helper, "Record a game with curl", "Audit and study", "Tournament quick start") are taken
from README.md as they are printed and run by bash, in order, against a real `herald serve` started
as the README says (`HERALD_ADMIN_TOKEN=umpire-secret`), with `.venv/bin/herald` beside them. No
answer may be a problem (4xx/5xx), and what the prose promises is checked in the output.

Issue 32: the walk-throughs reach Herald through one variable (`HERALD=http://127.0.0.1:8000`, a
line of the helper block): the server here listens on another port and only that line is changed;
every answer shown ends with a newline, so no two run together."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import start_server

README = Path(__file__).parent.parent / "README.md"
WALKTHROUGHS = ("## Two commands", "## Record a game with curl", "## Audit and study",
                "### Invitations, blind seeds, a bot", "### Clocks, your turn, ratings",
                "## Tournament quick start")


def shell_blocks(section: str) -> list[str]:
    """The ```sh blocks of one README section, as printed."""
    text = README.read_text()
    start = text.index(section + "\n")
    level = len(section) - len(section.lstrip("#"))
    end = re.compile(rf"^#{{2,{level}}} ", re.M).search(text, start + len(section))  # the next heading as high
    body = text[start:end.start() if end else None]
    return re.findall(r"```sh\n(.*?)```", body, re.S)


HERALD_LINE = re.compile(r"^HERALD=http://127\.0\.0\.1:8000 .*$", re.M)


def test_every_walkthrough_has_its_blocks():
    helper = shell_blocks("## Two commands")[1]
    assert len(HERALD_LINE.findall(helper)) == 1 and "# json KEY" in helper
    for section in WALKTHROUGHS[1:]:
        assert len(shell_blocks(section)) == 1, section


def test_one_variable_says_where_herald_answers():
    """No walk-through names a host or port of its own: each request goes to $HERALD, so a
    reader on another port changes one line."""
    for section in (*WALKTHROUGHS[1:], "## Analysis: who was winning, and where it turned"):
        for block in shell_blocks(section):
            assert not re.search(r"localhost|127\.0\.0\.1|:8000", block), (section, block)
            for line in block.splitlines():
                if re.match(r"\s*(\w+=\$\()?curl ", line):
                    assert "$HERALD/" in line, (section, line)


def test_armies_in_the_shape_the_readme_says(client):
    """The README's Day of Battle sentence: `options.armies` is armies.json's own shape (the file
    itself is usable) or one profile for each seat."""
    text = " ".join(README.read_text().split())
    assert "`domain/rules/day_of_battle/armies.json`, a labelled reconstruction, is itself a usable option" in text
    assert '`{"crusaders": {…}, "seljuq-turks": {…}}`' in text
    whole = json.loads((README.parent / "domain/rules/day_of_battle/armies.json").read_text())
    profiles = {a["id"]: a for a in whole["armies"]}
    body = {"rules": "day-of-battle", "scenario": "crusaders-seljuq-turks",
            "seats": {"crusaders": {"player": "Ann"}, "seljuq-turks": {"player": "Bo"}}}
    for armies in (whole, {"crusaders": profiles["crusaders"], "seljuq-turks": profiles["seljuq-turks"]}):
        made = client.post("/games", json=body | {"options": {"armies": armies}})
        assert made.status_code == 201, made.text


@pytest.mark.skipif(shutil.which("curl") is None, reason="the README's walk-throughs use curl")
def test_readme_walkthroughs_run_as_written(tmp_path):
    server = start_server(tmp_path, {"HERALD_ADMIN_TOKEN": "umpire-secret"})
    try:
        (tmp_path / ".venv").symlink_to(Path(sys.executable).parent.parent)  # `.venv/bin/herald` as in a checkout
        assert not server.url.endswith(":8000")
        helper, changed = HERALD_LINE.subn(f"HERALD={server.url}", shell_blocks("## Two commands")[1])
        assert changed == 1
        outputs = {}
        for section in WALKTHROUGHS[1:]:
            script = helper + "\n" + shell_blocks(section)[0]
            done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                                  env={k: v for k, v in server.env.items() if k != "HERALD_ADMIN_TOKEN"})
            outputs[section] = done.stdout
            assert done.returncode == 0, f"{section}: {done.stderr}"
            assert not re.search(r'"status":\s*[45]\d\d', done.stdout), f"{section}: {done.stdout[-3000:]}"
            assert "Traceback" not in done.stderr and "command not found" not in done.stderr, done.stderr
            assert not re.search(r"[}\]]\{", done.stdout), f"{section}: two answers on one line: {done.stdout[-3000:]}"
            assert done.stdout.endswith("\n"), section
    finally:
        server.stop()

    record = json.loads((tmp_path / "game.json").read_text())
    assert [e[0] for e in record["events"]][-2:] == ["GameEnded", "SeedRevealed"]  # herald-record/2
    game = outputs["## Record a game with curl"]
    assert '"ok":true' in game.replace(" ", "") and "event: SeedRevealed" in game

    audit = outputs["## Audit and study"]
    assert re.search(r"the umpire rules on dispute 6: upheld \(out of turn\); play from version 4 is void", audit)
    assert '"type":"DiceForced"' in audit.replace(" ", "") and '"faces":[6,6]' in audit.replace(" ", "")
    verdict, _ = json.JSONDecoder().raw_decode(audit[audit.rindex('{"ok"'):])
    assert verdict["ok"] is True and verdict["problems"] == [], verdict

    distance = outputs["### Invitations, blind seeds, a bot"].replace(" ", "")
    assert '"awaited":[]' in distance and '"seeds_given":["ayyubids","crusaders"]' in distance, distance
    assert '"type":"BotPlayed"' in distance and '"policy":"heuristic"' in distance, distance
    timed = outputs["### Clocks, your turn, ratings"].replace(" ", "")
    assert '"type":"TimeUsed"' in timed and '"kind":"fischer"' in timed
    assert '"before":1500' in timed and '"change":' in timed and '"history":[{' in timed

    tournament = outputs["## Tournament quick start"]
    assert "\nOK" in tournament or tournament.startswith("OK"), tournament[-2000:]
