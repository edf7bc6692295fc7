"""Dice statistics: every roll counted by game, seat, player and die kind, with expected
counts and a chi-square test of fairness. Forced dice (study forks) are counted apart
and flag the game. Kept in the store's database with its own tracking position."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import msgspec
from scipy.stats import chisquare

from domain.dice import STANDARD_DICE
from domain.game import Recorded
from domain.rules.registry import RULE_SYSTEMS
from projections.sql import Session, TrackedProjection

NAME = "dice/3"  # 2: a fork's copies of its parent's rolls are not counted again; 3: a game's own dice faces

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS herald_dice (
        game_id TEXT NOT NULL,
        seat TEXT NOT NULL,
        kind TEXT NOT NULL,
        face TEXT NOT NULL,
        forced INTEGER NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (game_id, seat, kind, face, forced)
    )""",
    """CREATE TABLE IF NOT EXISTS herald_dice_games (
        game_id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        seats TEXT NOT NULL,
        kinds TEXT NOT NULL,
        copied_until INTEGER NOT NULL DEFAULT 0
    )""",
]


class FaceStats(msgspec.Struct, frozen=True):
    """One die kind's rolls: observed and expected counts per face and the fairness test."""

    kind: str
    faces: list[int | str]
    rolls: int
    counts: dict[str, int]
    expected: dict[str, float]
    chi_square: float | None
    p_value: float | None
    forced: int = 0


class DiceReport(msgspec.Struct, frozen=True):
    """GET /games/{id}/dice or /players/{name}/dice."""

    subject: str
    kinds: list[FaceStats]
    by_seat: dict[str, list[FaceStats]]
    forced_dice: int
    flagged: bool
    note: str = ("p_value is the chance of counts at least this uneven from fair dice; "
                 "a tiny p_value over many rolls is worth a look, a single one proves nothing")


class DiceStats(TrackedProjection):
    name = NAME
    tables = ("herald_dice", "herald_dice_games")
    schema = tuple(SCHEMA)
    batch = 1000

    def apply(self, session: Session, seq: int, event: Recorded | None, prepared: None = None) -> None:
        if event is None or event.readers is not None:  # sealed dice stay out of the statistics
            return
        d = event.data
        game = str(event.originator_id)
        if event.type == "GameCreated":
            rules = RULE_SYSTEMS.get(d["rules"])
            own = rules.game_die_kinds(d.get("options")) if rules else STANDARD_DICE
            kinds = {k: list(v.faces) for k, v in own.items()}
            kinds.update((d.get("options") or {}).get("dice") or {})
            fork = d.get("fork") or {}
            session.execute(
                "INSERT INTO herald_dice_games (game_id, rules, seats, kinds, copied_until) VALUES "
                "(%(g)s, %(r)s, %(s)s, %(k)s, %(c)s) ON CONFLICT (game_id) DO NOTHING",
                {"g": game, "r": d["rules"], "s": msgspec.json.encode(d["seats"]).decode(),
                 "k": msgspec.json.encode(kinds).decode(), "c": int(fork.get("version") or 0)},
            )
        elif event.type in ("DiceRolled", "DiceForced"):
            if self._copied(session, game, event.version):
                return
            counts: dict[str, int] = defaultdict(int)
            for face in d["faces"]:
                counts[str(face)] += 1
            for face, n in sorted(counts.items()):
                session.execute(
                    "INSERT INTO herald_dice (game_id, seat, kind, face, forced, count) VALUES "
                    "(%(g)s, %(s)s, %(k)s, %(f)s, %(x)s, %(n)s) ON CONFLICT "
                    "(game_id, seat, kind, face, forced) DO UPDATE SET count = herald_dice.count + %(n)s",
                    {"g": game, "s": d.get("seat") or "", "k": d["kind"], "f": face,
                     "x": int(event.type == "DiceForced"), "n": n},
                )

    @staticmethod
    def _copied(session: Session, game: str, version: int) -> bool:
        """A fork starts with its parent's events up to the fork's version: those rolls were
        counted in the parent, and counting them again would let anyone inflate a player's
        statistics by forking."""
        rows = session.rows("SELECT copied_until FROM herald_dice_games WHERE game_id = %(g)s", {"g": game})
        return bool(rows) and version <= int(rows[0]["copied_until"])

    def for_game(self, game_id: str) -> DiceReport:
        self.catch_up()
        with self._db.transaction() as s:
            rows = s.rows("SELECT d.*, g.kinds FROM herald_dice d JOIN herald_dice_games g ON g.game_id = d.game_id "
                          "WHERE d.game_id = %(g)s", {"g": game_id})
        return _report(f"game {game_id}", rows, lambda r: r["seat"])

    def for_player(self, player: str) -> DiceReport:
        self.catch_up()
        with self._db.transaction() as s:
            games = s.rows("SELECT game_id, seats FROM herald_dice_games")
            seats = [(g["game_id"], seat) for g in games
                     for seat, info in msgspec.json.decode(g["seats"]).items() if info.get("player") == player]
            rows: list[dict[str, Any]] = []
            for game_id, seat in seats:
                rows += s.rows("SELECT d.*, g.kinds FROM herald_dice d JOIN herald_dice_games g "
                               "ON g.game_id = d.game_id WHERE d.game_id = %(g)s AND d.seat = %(s)s",
                               {"g": game_id, "s": seat})
        return _report(f"player {player}", rows, lambda r: f"{r['game_id']}:{r['seat']}")


def _report(subject: str, rows: list[dict[str, Any]], group: Callable[[dict[str, Any]], str]) -> DiceReport:
    forced = sum(int(r["count"]) for r in rows if r["forced"])
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[group(r)].append(r)
    return DiceReport(
        subject=subject,
        kinds=_stats(rows),
        by_seat={key: _stats(group_rows) for key, group_rows in sorted(groups.items())},
        forced_dice=forced,
        flagged=forced > 0,
    )


def _stats(rows: list[dict[str, Any]]) -> list[FaceStats]:
    """Counts per die: a die is its kind's name and its faces, so two games that give one
    name to different dice (open-table custom dice) are counted apart."""
    by_kind: dict[tuple[str, bytes], dict[str, Any]] = {}
    for r in rows:
        faces = msgspec.json.decode(r["kinds"]).get(r["kind"])
        entry = by_kind.setdefault((r["kind"], msgspec.json.encode(faces)),
                                   {"counts": defaultdict(int), "forced": 0, "faces": faces})
        if r["forced"]:
            entry["forced"] += int(r["count"])
        else:
            entry["counts"][r["face"]] += int(r["count"])
    out = []
    for (kind, _), entry in sorted(by_kind.items()):
        faces = entry["faces"] or sorted(entry["counts"])
        labels = [str(f) for f in faces]
        weight = {label: labels.count(label) / len(labels) for label in labels}
        rolls = sum(entry["counts"].values())
        distinct = list(dict.fromkeys(labels))
        observed = [entry["counts"].get(label, 0) for label in distinct]
        expected = [rolls * weight[label] for label in distinct]
        chi, p = (None, None)
        strays = {f: n for f, n in entry["counts"].items() if f not in weight}
        if strays:  # faces no die of this kind has: counted, never tested against the die
            distinct += sorted(strays)
            observed += [strays[f] for f in sorted(strays)]
            expected += [0.0] * len(strays)
        elif rolls and len(distinct) > 1:
            result = chisquare(observed, expected)
            chi, p = float(result.statistic), float(result.pvalue)
        out.append(FaceStats(
            kind=kind, faces=faces, rolls=rolls,
            counts={label: n for label, n in zip(distinct, observed)},
            expected={label: round(e, 3) for label, e in zip(distinct, expected)},
            chi_square=chi, p_value=p, forced=entry["forced"],
        ))
    return out
