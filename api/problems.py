"""Problem types: every ``type`` link (``/problems/<code>``) a problem+json answer carries
explains itself at ``GET /problems/<code>`` (HTML, or JSON when asked) — issue 18.

What each problem means is written here for the service's own problems (:data:`EXPLAINED`).
A rule system's refusals (``saladin.not_enough_orders``) are explained by what the rule system
declares (``RuleSystem.violations``, its package's ``violations.json``: what the detail says and
the rulebook sections), and the codes every rule system shares by ``SHARED_VIOLATIONS``
(domain/rules/base.py). The service's own problems are found in the source: :func:`scan` reads
``api/`` and the rest of ``domain/`` once and finds every place a problem is raised, with its
code, status and message. tests/api/test_problem_pages.py walks every code and fetches its page,
and finds every code a rule package raises declared by its rule system.
"""

from __future__ import annotations

import ast
import functools
import html
import importlib
from pathlib import Path
from typing import Any

import msgspec
from fastapi import APIRouter, Header
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from api.errors import HeraldError, NotFound, status_of
from domain.errors import DomainError, RecordError
from domain.rules.base import SHARED_VIOLATIONS
from api.http import doc, respond

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("domain", "api", "projections", "replays", "analysis")
DECLARED = "domain/rules"  # the rule systems: their codes are declared (RuleSystem.violations), not scanned


class Site(msgspec.Struct, frozen=True):
    """One place in the code that raises a problem."""

    module: str
    line: int
    message: str  # the message as written, each computed part shown as "…"
    rule: str | None = None


class ProblemType(msgspec.Struct, frozen=True):
    """What ``GET /problems/<code>`` answers as JSON."""

    type: str
    code: str
    title: str
    status: int
    explanation: str
    rule_system: str | None = None
    rules: list[str] = []  # the rulebook sections the code is raised under
    examples: list[str] = []  # its messages, as written ("…": a part computed at run time)


# The service's own problems, in words: what happened and what to do about it.
EXPLAINED: dict[str, str] = {
    "bad_request": "The request cannot be taken as it is. The detail says which part.",
    "malformed_json": "The body is not JSON (or not UTF-8). Send one JSON document, UTF-8 encoded.",
    "invalid_body": "The body is JSON but not the shape this route takes: a field is missing, unknown or of "
                    "the wrong type. The detail names it; the OpenAPI document gives the shape.",
    "invalid_request": "A path parameter, query parameter or header does not fit what the route takes "
                       "(a game id that is not a UUID, a version that is not a number). The detail names it.",
    "invalid": "The request is well formed but a value in it cannot be used. The detail says which and why.",
    "illegal": "The rules refuse this command. The record is unchanged.",
    "director_unregistered": "A rated tournament names its director, a registered player (POST /players), and is "
                             "created with that player's token: someone registered answers for the names it registers.",
    "game_id_reserved": "The record's game id is a name-based UUID (version 3 or 5), the kind of id Herald gives its "
                        "private streams (players, seeds, tournament keys); a game's id is random, so such a record is "
                        "not imported.",
    "duplicate_key": "A JSON object names one key twice. Readers disagree on which value counts (some keep the "
                     "first, some the last, some refuse), so Herald takes each key once. `field` names the key.",
    "repeated_header": "A header that is read once (Authorization, Content-Type, Content-Encoding, "
                       "Idempotency-Key, If-Match, Last-Event-ID) is given twice. `field` names it.",
    "header_timeout": "The request's line and headers did not all arrive within HERALD_HEADER_TIMEOUT seconds "
                      "(10 by default) of the connection opening or the request beginning; the connection is "
                      "closed. Send the headers at once.",
    "unstorable_text": "A string (or a key) holds a NUL character, which the database cannot store. "
                       "`field` names where it is.",
    "integer_out_of_range": "An integer does not fit in 64 bits, the largest the database stores. "
                            "`field` names where it is.",
    "too_deep": "The JSON nests deeper than Herald stores (32 levels; a record sent to be verified, 64).",
    "too_large": "The body is larger than this route takes (a gzipped body: once decoded). A record may hold "
                 "64 MiB unless the server says otherwise (HERALD_MAX_RECORD_BODY); other bodies 64 KiB.",
    "compression_ratio": "The gzipped body decodes to more than 200 times the bytes sent: Herald takes that for a "
                         "zip bomb and stops decoding. A real record compresses 6 to 15 times; send it as it is.",
    "malformed_gzip": "The body says `Content-Encoding: gzip` but is not a whole gzip stream (corrupt, or cut "
                      "short). Nothing was recorded; compress it again, or send it without the header.",
    "unsupported_encoding": "The body is sent in a content coding Herald does not take. Send it as it is, or "
                            "with `Content-Encoding: gzip`; the answer's `Accept-Encoding` header lists both.",
    "unsupported_media_type": "The body is not sent as JSON. Send `Content-Type: application/json` "
                              "(or any `application/<x>+json`).",
    "body_timeout": "No part of the request body arrived for 15 seconds, so the request was dropped. Nothing "
                    "was recorded; send it again, whole.",
    "disconnected": "The client went away before the whole body arrived. Nothing was recorded; send it again.",
    "not_found": "Nothing is there: no such game, tournament, player, seat or path. Check the id.",
    "unknown_seat": "The game has no seat of that name, or the seat named is not one of the scenario's seats.",
    "unknown_player": "No player is registered under that name.",
    "unknown_rules": "Herald records no rule system of that name. `GET /rules` lists the ones it records.",
    "unknown_scenario": "The rule system has no scenario of that name. `GET /rules/{system}` lists its scenarios.",
    "unauthorized": "This needs a token: send `Authorization: Bearer <token>` (a seat's token, a player's, the "
                    "tournament director's or the admin's, as the route says).",
    "bad_token": "The bearer token holds characters no Herald token has (tokens are visible ASCII).",
    "forbidden": "The token is valid but does not allow this.",
    "wrong_token": "That token does not act for the seat (or player) named: each seat's token acts for its "
                   "seat only.",
    "conflict": "The request conflicts with the game or tournament as it stands now.",
    "stale_version": "Another command was recorded first: `expected_version` (or If-Match) is no longer the "
                     "game's version. Read the game again, then decide and send again. No dice were drawn.",
    "bad_if_match": "If-Match must be a version number (the game's version the command was decided on).",
    "incompatible_record": "The game's record was made by a rule-system version this server cannot load.",
    "unknown_event_type": "The game's record holds an event type this version of Herald does not know: it "
                          "was written by a newer server, which can read it.",
    "needs_seed": "A hidden result (a deck's order) was asked for before the game's seed is revealed.",
    "record_mismatch": "The record's draws are not the ones its play makes: it does not replay.",
    "name_taken": "A player of that name is registered already: choose another name.",
    "play_started": "Seats are claimed before the first command; play has started.",
    # seats taken at a distance (issue 29, domain/seating.py)
    "bad_seating": "A seat is held by its creator, offered to a registered player (`invite`), left `open` or "
                   "played by a `bot` — one of these; at least one seat is a person's; with `blind_seeds` no "
                   "`client_seed` is given at creation (each seat gives its own seed after the commitment).",
    "bad_rollouts": "A bot seat plays 0 to 200 rollouts per candidate command.",
    "bad_seat_seed": "A seat's own seed is 1 to 128 letters, digits, '.', '_', '~' or '-'; a game with blind seeds "
                     "needs it when the seat is taken.",
    "seats_awaited": "No decision is taken until every seat is taken and every seed given: `GET /games/{id}` "
                     "shows `seating.awaited`.",
    "seat_taken": "That seat is not open to be taken: it is taken already, or held by the game's creator.",
    "not_invited": "The seat is offered to another registered player (or to nobody).",
    "invitation_required": "An open seat is taken with the invitation link's secret: send `invitation`.",
    "wrong_invitation": "That is not the game's invitation secret.",
    "seat_not_taken": "A seat gives its seed when it is taken; this one is still open or offered.",
    "seed_given": "The seat has given its seed already: a seat gives one, once.",
    "seeds_not_blind": "This game's client seed was given at its creation: it takes no seat's seed.",
    "bot_seat": "The seat is played by the server's bot: nobody sends its commands.",
    "not_a_bot": "A bot decision names a seat no bot plays (a record that claims one).",
    "bad_bot_record": "A recorded bot decision names another policy, or more rollouts than the seat's bot plays.",
    "too_many_requests": "Too many writes from this client in a short time. Wait `Retry-After` seconds.",
    "too_many_streams": "This client holds as many live streams as it may. Close one first.",
    "database_unavailable": "The database cannot be reached just now. Nothing was recorded: retry after "
                            "`Retry-After` seconds.",
    "internal": "Herald failed to handle the request; it was logged. Nothing was recorded.",
    "http_405": "This path does not take that method. The `Allow` header lists the methods it takes.",
    "bad_client_seed": "The client seed is too long (at most 500 characters). It is any text the players agree "
                       "on; it goes into every draw, so no side alone chooses the dice.",
    "bad_seed": "A creator-supplied seed (a study game's) is 16 to 64 bytes, written in hex.",
    "bad_seat": "A seat id is lowercase letters, digits, '-' or '_', up to 32 characters.",
    "bad_player": "A player name is 1 to 100 characters of text.",
    "wrong_seat_count": "The scenario takes a different number of seats. `GET /rules/{system}` gives each "
                        "scenario's seats and player counts.",
    "bad_dice_policy": "A fork's `dice` is `same` (the parent's dice again), `fresh` (a new secret seed) or "
                       "`forced` (the faces you state, first).",
    "bad_idempotency_key": "An Idempotency-Key is 1 to 200 characters.",
    "bad_webhook": "A webhook is an absolute http or https URL of at most 2,000 characters.",
    "idempotency_key_reused": "This seat first sent this Idempotency-Key with a different command. A retry "
                              "sends the same command with the same key; a new command takes a new key. Keys are "
                              "each seat's own: another seat's use of the same key is not a retry of yours.",
    "bad_last_event_id": "Last-Event-ID is the version of the last event the stream sent (a number).",
    "forced_face_mismatch": "A forced face is not a face of the die it was forced on.",
    "fork_after_end": "A game whose seed is revealed cannot be forked after its end: fork from a version "
                      "before the game ended.",
    "no_such_version": "The game has no such version: versions run from 1 to the game's current version.",
    "seed_not_revealed": "This needs the game's seed, which stays secret until the game ends (or an umpire "
                         "reveals it).",
    "hidden_information": "The play up to that version holds secrets (sealed events): before the seed is "
                          "revealed only an umpire may copy it.",
    "game_exists": "A game (or name) with that id is already recorded here: an import never overwrites.",
    "game_frozen": "Play is frozen: a dispute raised with `freeze` is open. An umpire's ruling (or, with no "
                   "umpire, the seats agreeing or the freeze lapsing) lets play go on.",
    "umpire_rules": "This game has an umpire: the freeze lifts when the umpire rules on the dispute, not by "
                    "the seats' agreement.",
    "not_umpire": "Only an umpire rules on disputes: the admin token, or the tournament's director for its games.",
    "not_director": "Only the tournament's director (or the admin) may do this.",
    "no_such_round": "That round has not been paired yet. The tournament lists the rounds paired.",
    "read_limited": "This client address (or token) has as many expensive reads running as it may (verifying a "
                    "record, an outline, the first fold of past positions, an analysis), or has spent its CPU "
                    "seconds on them for now. Wait `Retry-After` seconds; answers already computed are not limited.",
    "server_busy": "The server is running as many expensive reads as it takes at once, for every client "
                   "together. Ask again after `Retry-After` seconds.",
    "rate_limited": "Too many writes from this client or token in a short time. Wait `Retry-After` seconds.",
    "record_invalid": "The record sent does not verify: its hash chain, seed, draws or replay fail. The "
                      "detail names the first failure; `POST /records/verify` gives the whole verdict.",
    "record_chain_broken": "The record's hash chain does not hold: an event was changed, dropped or reordered. "
                           "It is not opened.",
    "record_empty": "The record has no events.",
    "record_unreadable": "The record cannot be replayed: its rule system, version or data are not ones this "
                         "server can play.",
    "record_too_long": "The record has more events than the viewer opens (HERALD_VIEWER_MAX_EVENTS).",
    "not_admin": "Only the admin token (HERALD_ADMIN_TOKEN) may do this: importing a record stores a game.",
    "record_not_open": "No record is open in the viewer under that key (opened records are held for a while): "
                       "open the file again.",
    "analysis_of_live_game": "No engine help during play: a game is analysed once it has ended, or as a study fork.",
    "analysis_unavailable": "This rule system cannot play itself, so its games cannot be analysed by rollouts.",
    "analysis_failed": "The analysis could not be completed just now; it was logged. Try again later.",
    "analysis_busy": "The server is computing as many analyses as it runs at once; a new one is not started. "
                     "Ask again after `Retry-After` seconds (an analysis already asked for is answered).",
    "unknown_policy": "The analysis policy named is not one Herald has; the detail lists them.",
    "no_such_position": "No decision was taken from that version: analysis asks about a board where a seat "
                        "decided. The detail lists the boards analysed.",
    "hidden_commands": "The commands a seat had at that version name its hidden cards: only that seat (or an "
                       "umpire) may see them before the seed is revealed.",
    "not_your_turn": "It is not this seat's turn: `GET /games/{id}` says who is to act. The record is unchanged.",
    "game_over": "The game has ended: it takes no more commands (audits, annotations and disputes excepted).",
    "unknown_command": "The command is not one of the rule system's commands, or a field of it is wrong. The "
                       "rule system's command schemas (`<System>Command` in the OpenAPI document) give every "
                       "form; `GET /games/{id}/legal-commands` lists what the seat may send now.",
    # tournaments (domain/tournaments/model.py): 409 when the tournament is not there yet, else 422
    "already_registered": "That name is registered in this tournament already. Register each player once.",
    "already_withdrawn": "That player has withdrawn already; a withdrawal is recorded once.",
    "registration_closed": "Players register before the first round is paired. Pair no round until the field "
                           "is complete.",
    "round_unfinished": "The current round still has games in play (the detail names them). Pair the next "
                        "round once every table has a result or a forfeit.",
    "stale_round": "The round was planned from a tournament that has moved on since (another director paired "
                   "it). Read the tournament again; the round may already be paired.",
    "too_few_players": "A round needs at least two players still in the tournament.",
    "tournament_complete": "Every round the format plays has been played: there is no next round to pair.",
    "bad_forfeit": "A forfeit names players seated at that game. The detail lists who is.",
    "bad_format": "The format and table size do not go together: multi-player tables are paired by score "
                  "(Swiss) only.",
    "bad_option": "An option of the game or tournament cannot be used with this rule system and scenario. "
                  "The detail names it.",
    "bad_points": "An adjustment moves a player's points by a non-zero multiple of ½, between -100 and 100.",
    "bad_round": "That round has not been paired, so nothing in it can be adjusted.",
    "bad_rounds": "The number of rounds does not fit the format: Swiss takes 1 to 50; round robin and "
                  "knockout take as many as the field needs (leave rounds out).",
    "bad_table_size": "The table size does not fit the rule system's scenarios: each must seat that many "
                      "players. The detail gives the range.",
    "no_scenario": "A tournament names at least one scenario of its rule system.",
    "unknown_format": "The format is one of swiss, round-robin or knockout.",
    "unknown_game": "That game was not paired in this tournament.",
}

RULES_EXPLANATION = (
    "{title}'s rules refuse this command; the record is unchanged. The problem's `rule` names the section "
    "of the rulebook it breaks and `detail` says how. `GET /games/{{id}}/legal-commands` lists every "
    "command the seat may send now; `POST /games/{{id}}/commands/check` says whether a command would be "
    "recorded, and why not, without recording it."
)
AUDIT_EXPLANATION = (
    "The audit command (an annotation, a dispute, a ruling, a void, a freeze) is refused as it is; the "
    "detail says which part. The record is unchanged."
)
GENERIC_EXPLANATION = "Herald refuses the request as it is; the detail says why. Nothing was recorded."


@functools.cache
def catalogue() -> dict[str, ProblemType]:
    """Every problem type the code can answer with, by code."""
    from domain.rules.registry import RULE_SYSTEMS

    sites: dict[str, list[Site]] = {}
    statuses: dict[str, tuple[int, str]] = {}
    found_codes, _ = scan()
    for code, site, status in found_codes:
        if site.line:
            sites.setdefault(code, []).append(site)
        statuses.setdefault(code, status)
    declared = {**SHARED_VIOLATIONS, **{code: v for system in RULE_SYSTEMS.values() for code, v in system.violations.items()}}
    for code, violation in declared.items():
        sites.setdefault(code, []).append(Site(DECLARED, 0, violation.summary, None))
        sites[code] += [Site(DECLARED, 0, "", rule) for rule in violation.rules]
        statuses.setdefault(code, POSITIONAL["RuleViolation"])
    prefixes = {system.id: system for system in RULE_SYSTEMS.values()}
    out = {}
    for code in sorted(statuses):
        system = prefixes.get(code.partition(".")[0]) if code not in SHARED_VIOLATIONS else None
        found = sites.get(code, [])
        status, title = statuses[code]
        if code in EXPLAINED:
            explanation = EXPLAINED[code]
        elif system is not None:
            explanation = RULES_EXPLANATION.format(title=system.title.split(":")[0])
        elif code.startswith("audit."):
            explanation = AUDIT_EXPLANATION
        else:
            explanation = GENERIC_EXPLANATION
        out[code] = ProblemType(
            type=f"/problems/{code}", code=code, title=title, status=status, explanation=explanation,
            rule_system=system.id if system else None,
            rules=sorted({s.rule for s in found if s.rule}),
            examples=list(dict.fromkeys(s.message for s in found if s.message))[:8])
    return out


class Unresolved(msgspec.Struct, frozen=True):
    """A place that raises a problem whose code is computed at run time (a code passed on)."""

    module: str
    line: int
    code: str  # the expression, as written


class _Helper(msgspec.Struct, frozen=True):
    """A function that makes or raises a RuleViolation from its parameters (``violation``)."""

    params: list[str]
    code: Any  # ast nodes
    message: Any
    rule: Any


@functools.cache
def scan(folders: tuple[str, ...] = SCANNED, skip: str | None = DECLARED) -> tuple[list[tuple[str, Site, tuple[int, str]]],
                                                                                list[Unresolved]]:
    """(code, where, (status, title)) for every problem raised in the source of ``folders`` but
    ``skip`` (the rule systems, whose codes are declared) — ``RuleViolation(code, …)`` and the
    functions that make one from their parameters (``violation(reason, …)``), the service's
    errors (``NotFound(…, code=…)``, their classes' own codes) and ``problem(status, title,
    detail, code)`` — and the places whose code is only known at run time."""
    files = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py")
                   if skip is None or not p.relative_to(ROOT).as_posix().startswith(skip + "/"))
    trees = {_module(p): ast.parse(p.read_text(), str(p)) for p in files}
    nodes = {m: list(ast.walk(tree)) for m, tree in trees.items()}
    classes = _error_classes(nodes)
    helpers = {(m, f.name): h for m, found in nodes.items() for f in found
               if isinstance(f, ast.FunctionDef) and (h := _helper(f)) is not None}
    wanted = {*classes, *(name for _, name in helpers), "problem", "problem_body"}
    found: list[tuple[str, Site, tuple[int, str]]] = []
    unresolved: list[Unresolved] = []
    for name, fixed in classes.items():
        if fixed is not None:
            found.append((fixed[2], Site("api.errors", 0, ""), (fixed[0], fixed[1])))
    for kind, status in FIXED.items():
        found.append((kind.code, Site(kind.__module__, 0, ""), status))
    for module, tree in trees.items():
        local = {name: h for (m, name), h in helpers.items() if m == module}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                local.update({a.asname or a.name: helpers[(node.module, a.name)] for a in node.names
                              if (node.module, a.name) in helpers})
        namespace = None
        for node in nodes[module]:
            if isinstance(node, ast.Call) and _name(node.func) in wanted:
                if namespace is None:
                    namespace = vars(importlib.import_module(module))
                _problems_of(module, namespace, node, classes, local, found, unresolved)
    return found, unresolved


RULES = (422, "Illegal command")


def _positional() -> dict[str, tuple[int, str]]:
    """The domain's errors, each made as ``Kind(code, message, rule)``, and the status and title
    each is answered with (api/errors.status_of)."""
    import domain.creation  # noqa: F401 - the kinds defined there
    import domain.tournaments.model  # noqa: F401

    found, stack = {}, [DomainError]
    while stack:
        kind = stack.pop()
        stack += kind.__subclasses__()
        if kind is not DomainError and not issubclass(kind, (HeraldError, RecordError)):
            found[kind.__name__] = status_of(kind("code", "message"))
    return found


def _fixed() -> dict[type[RecordError], tuple[int, str]]:
    """The domain's errors of one code each (a record that cannot be folded), and the status
    and title each is answered with (api/errors.status_of)."""
    found, stack = {}, [RecordError]
    while stack:
        kind = stack.pop()
        stack += kind.__subclasses__()
        if kind is not RecordError:
            found[kind] = status_of(kind.__new__(kind))
    return found


POSITIONAL = _positional()
FIXED = _fixed()


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _helper(func: ast.FunctionDef) -> _Helper | None:
    """The function as a maker of RuleViolations from its parameters, if it is one."""
    params = [a.arg for a in func.args.args]
    calls = [n for statement in func.body if isinstance(statement, (ast.Return, ast.Raise, ast.If, ast.Try))
             for n in ast.walk(statement)]
    for node in calls:
        if isinstance(node, ast.Call) and _name(node.func) == "RuleViolation" and node.args:
            code = node.args[0]
            if any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(code)):
                keywords = {k.arg: k.value for k in node.keywords}
                return _Helper(params, code, node.args[1] if len(node.args) > 1 else None,
                               node.args[2] if len(node.args) > 2 else keywords.get("rule"))
    return None


def _error_classes(nodes: dict[str, list[ast.AST]]) -> dict[str, tuple[int, str, str] | None]:
    """Error classes by name → (status, title, code) they fix (None: RuleViolation)."""
    found: dict[str, tuple[list[str], dict[str, Any]]] = {}
    for each in nodes.values():
        for node in each:
            if isinstance(node, ast.ClassDef):
                fixed: dict[str, Any] = {}
                for statement in node.body:
                    if isinstance(statement, ast.Assign):
                        targets = statement.targets[0]
                        names = [t.id for t in targets.elts] if isinstance(targets, ast.Tuple) else \
                            [targets.id] if isinstance(targets, ast.Name) else []
                        values = statement.value.elts if isinstance(statement.value, ast.Tuple) else [statement.value]
                        for name, value in zip(names, values):
                            if isinstance(value, ast.Constant):
                                fixed[name] = value.value
                found[node.name] = ([_name(b) for b in node.bases], fixed)
    resolved: dict[str, dict[str, Any]] = {"HeraldError": found.get("HeraldError", ([], {}))[1]}
    changed = True
    while changed:
        changed = False
        for name, (bases, fixed) in found.items():
            parent = next((b for b in bases if b in resolved), None)
            if name not in resolved and parent is not None:
                resolved[name] = {**resolved[parent], **fixed}
                changed = True
    classes: dict[str, tuple[int, str, str] | None] = {"RuleViolation": None}
    for name, fixed in resolved.items():
        classes[name] = (fixed.get("status", 400), fixed.get("title", "Bad request"), fixed.get("code", "bad_request"))
    return classes


def _problems_of(module: str, namespace: dict[str, Any], call: ast.Call, classes: dict[str, Any],
                 helpers: dict[str, _Helper], found: list, unresolved: list) -> None:
    name = _name(call.func)
    args, keywords = call.args, {k.arg: k.value for k in call.keywords}

    def value(node: ast.expr | None, bound: dict[str, Any] | None = None) -> Any:
        return _value(module, node, {**namespace, **(bound or {})})

    def add(code: Any, message: ast.expr | None, rule: Any, status: tuple[int, str], written: ast.expr) -> None:
        if isinstance(code, str):
            found.append((code, Site(module, call.lineno, _template(message), rule if isinstance(rule, str) else None),
                          status))
        else:
            unresolved.append(Unresolved(module, call.lineno, ast.unparse(written)))

    if name in POSITIONAL and args:
        if isinstance(args[0], ast.JoinedStr) or isinstance(args[0], (ast.Constant, ast.Name, ast.Attribute)):
            code = value(args[0])
            if code is None and _inside_helper(call, helpers):
                return  # a helper's own body: its callers are resolved instead
            add(code, args[1] if len(args) > 1 else None,
                value(args[2] if len(args) > 2 else keywords.get("rule")), POSITIONAL[name], args[0])
    elif name in helpers and args:
        helper = helpers[name]
        bound = {p: value(a) for p, a in zip(helper.params, args)}
        bound.update({k: value(v) for k, v in keywords.items() if k})
        if any(v is None for p, v in bound.items() if p in {n.id for n in ast.walk(helper.code) if isinstance(n, ast.Name)}):
            unresolved.append(Unresolved(module, call.lineno, ast.unparse(call)))
            return
        message = args[helper.params.index("message")] if "message" in helper.params and \
            helper.params.index("message") < len(args) else helper.message
        rule_node = args[helper.params.index("rule")] if "rule" in helper.params and \
            helper.params.index("rule") < len(args) else helper.rule
        add(_value(module, helper.code, {**namespace, **bound}), message, value(rule_node, bound), RULES, call)
    elif name in classes and classes[name] is not None:
        status, title, default = classes[name]
        code = value(keywords["code"]) if "code" in keywords else default
        add(code, args[0] if args else None, value(keywords.get("rule")), (status, title),
            keywords.get("code", call))
    elif name in ("problem", "problem_body") and len(args) >= 4:
        status, title = value(args[0]), value(args[1])
        if isinstance(status, int):
            add(value(args[3]), args[2], None, (status, str(title)), args[3])


def _inside_helper(call: ast.Call, helpers: dict[str, _Helper]) -> bool:
    return any(h.code is call.args[0] for h in helpers.values())


def _value(module: str, node: ast.expr | None, namespace: dict[str, Any]) -> Any:
    """A constant, or an expression of the module's constants (``f"{SYSTEM}.bad_seats"``) and
    the bound parameters, evaluated; None when it depends on anything known only at run time."""
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    try:
        return eval(compile(ast.Expression(node), module, "eval"), dict(namespace))  # noqa: S307
    except Exception:
        return None


def _template(node: ast.expr | None) -> str:
    """A message as written, each part computed at run time shown as ``…``."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "…" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _template(node.left) + _template(node.right)
    return "…"


def page(problem: ProblemType) -> str:
    """The problem type as an HTML page."""
    e = html.escape
    rules = "".join(f"<li>{e(r)}</li>" for r in problem.rules)
    examples = "".join(f"<li><q>{e(x)}</q></li>" for x in problem.examples)
    system = f"<p>Raised by the rule system <code>{e(problem.rule_system)}</code>.</p>" if problem.rule_system else ""
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{e(problem.code)} — Herald problem</title>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}"
        "code{background:#f3f3f3;padding:0 .2em}</style></head><body>"
        f"<h1><code>{e(problem.code)}</code></h1>"
        f"<p><strong>{problem.status} {e(problem.title)}</strong></p>"
        f"<p>{_code_spans(e(problem.explanation))}</p>{system}"
        + (f"<h2>Rulebook sections</h2><ul>{rules}</ul>" if rules else "")
        + (f"<h2>What the detail says</h2><p>For example (… stands for what the request names):</p>"
           f"<ul>{examples}</ul>" if examples else "")
        + "<p>Every problem Herald answers is RFC 9457 problem+json: <code>type</code> (this page), "
          "<code>title</code>, <code>status</code>, <code>detail</code>, <code>code</code> and, for a rule "
          "broken, <code>rule</code>.</p>"
          "<p><a href='/problems'>Every problem type</a> · <a href='/docs'>API documentation</a></p>"
          "</body></html>"
    )


def _code_spans(text: str) -> str:
    """```x``` → ``<code>x</code>`` in escaped text."""
    parts = text.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def index_page(problems: dict[str, ProblemType]) -> str:
    e = html.escape
    rows = "".join(f"<li><a href='/problems/{e(c)}'><code>{e(c)}</code></a> — {p.status} {e(p.title)}</li>"
                   for c, p in problems.items())
    return ("<!doctype html><html lang=en><head><meta charset=utf-8><title>Herald problem types</title></head>"
            f"<body><h1>Problem types</h1><ul>{rows}</ul></body></html>")


class ProblemIndex(msgspec.Struct, frozen=True):
    """Every problem type Herald answers with."""

    problems: list[ProblemType]


def router() -> APIRouter:
    """``GET /problems`` and ``GET /problems/{code}``: HTML for a person, JSON when asked
    (``Accept: application/json``)."""
    routes = APIRouter(tags=["problems"])
    html_page = {"text/html": {"schema": {"type": "string"}, "example": "<!doctype html>…"}}

    def json_asked(accept: str | None) -> bool:
        return bool(accept) and "json" in accept and "text/html" not in accept

    @routes.get("/problems", **doc(response=ProblemIndex, also=html_page))
    async def problem_types(accept: str | None = Header(None)) -> Response:
        """Every problem type: its code, status and title (a page for a person, JSON when asked)."""
        found = await run_in_threadpool(catalogue)
        if json_asked(accept):
            return respond(ProblemIndex(list(found.values())))
        return HTMLResponse(index_page(found))

    @routes.get("/problems/{code}", **doc(response=ProblemType, errors=(404,), also=html_page))
    async def problem_type(code: str, accept: str | None = Header(None)) -> Response:
        """What a problem ``type`` (``/problems/<code>``) means: when Herald answers with it, what
        the detail says, the rulebook sections behind a rule system's refusal, what to do."""
        found = await run_in_threadpool(catalogue)
        if code not in found:
            raise NotFound(f"no problem type {code!r}; GET /problems lists them", code="not_found")
        return respond(found[code]) if json_asked(accept) else HTMLResponse(page(found[code]))

    return routes
