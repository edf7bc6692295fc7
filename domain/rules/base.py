"""The rule-system interface (DESIGN.md, "The rule-system interface").

A rule system is a pure, deterministic decider: nothing in it does I/O, reads a clock,
the environment or ``random``. Every die and shuffle comes from the :class:`~domain.rng.Rng`
handed to :meth:`RuleSystem.decide`. It holds no module state: what it knows between two
calls is in the state the events fold to.

The contract, all of it by declaration (nothing is found by a module's name, a key's name or
by reading the source). A rule system is one package under ``domain/rules/`` whose
``engine.py`` subclasses :class:`RuleSystem`, and one line in ``domain/rules/registry.py``;
:func:`check_declared` (run by the registry at import) refuses one that leaves out a
declaration, and tests/rules/conformance.py holds every registered one to the same checks.

- **Required attributes.** ``id`` (the record's ``rules``), ``version`` (semver: a change in
  play bumps it), ``title``, ``scenarios`` (:class:`Scenario` by id), ``die_kinds``,
  ``command_type`` (a tagged union of :class:`TaggedCommand` subclasses, each with its ``tag``),
  ``package_dir``; ``violations``: every code its refusals (:class:`RuleViolation`) carry
  (``<id>.<reason>``, besides :data:`SHARED_VIOLATIONS`), each a :class:`Violation` (what the detail says,
  the rulebook sections), read from ``violations.json`` in ``package_dir`` when the class is made
  (:func:`declared_violations`): the problem pages (``GET /problems/<code>``) are made from it, a
  test finds every code the package raises declared, and the conformance suite every code
  raised in play; ``section_fields``: the state's fields of the turn (or round, or day) and the
  phase the move list groups play by (``(None, None)``: none), unless :meth:`RuleSystem.section`
  is written.
- **Required methods.** :meth:`~RuleSystem.setup`, :meth:`~RuleSystem.to_act`,
  :meth:`~RuleSystem.legal_commands`, :meth:`~RuleSystem.decide` (raise :class:`RuleViolation`),
  :meth:`~RuleSystem.evolve` (the fold: assignment only), :meth:`~RuleSystem.outcome`; where the
  package's pure function already takes the method's arguments the engine names it
  (``to_act = staticmethod(rules.to_act)``) rather than writing a method that forwards;
  :meth:`~RuleSystem.view` (or a ``board`` that gives it, below) and ``determinize`` (its own,
  :func:`keeps_no_secrets` or :func:`offers_no_rollouts`: "Rollouts" below). A rule system
  with secrets says how its view shows them all once the seed is revealed
  (:meth:`~RuleSystem.open_view`, or its ``board``).
- **Optional declarations** (default in brackets). ``board`` [None]: the package's ``view.py``
  when its ``view(state, seat, everything)`` and ``render_text(state, names, everything)`` take
  the :class:`Board` protocol's arguments, which then give :meth:`~RuleSystem.view`,
  :meth:`~RuleSystem.open_view` and :meth:`~RuleSystem.render_text`; ``view_type`` and
  ``choice_type`` [None]: the types :meth:`~RuleSystem.view` and each of
  :meth:`~RuleSystem.legal_choices` convert to, for the OpenAPI contract (a choice type
  subclasses :class:`TaggedChoice`); ``labels`` [None: the command's type and fields in
  words]: the package's ``labels.py`` (:class:`Labels`: ``label``, ``prompt``); ``narration``
  [None: the command's type, the generic event wording]: its ``narrate.py``
  (:class:`Narration`: ``describe_command``, ``describe_event``);
  ``rollout_policy`` [None: rollouts play ``random`` only]: its habit for rollouts (a
  :data:`Policy`, in its ``policy.py``, pure given the ``rnd`` it is handed: :func:`any_of` and
  :func:`best` help), the analysis's ``heuristic``; ``flexible_seats`` [False],
  ``owner_data`` [None: it takes none] (an :class:`OwnerData`), ``legal_complete`` [False], ``older_versions`` and
  ``voids_keep_order`` [()] (each documented where declared below).
- **Optional methods** (each documented below, with its default): :meth:`~RuleSystem.window`,
  :meth:`~RuleSystem.legal_choices`, :meth:`~RuleSystem.listing_complete`,
  :meth:`~RuleSystem.play` and :meth:`~RuleSystem.play_listed` (a rollout's faster path),
  :meth:`~RuleSystem.time_outcome`, :meth:`~RuleSystem.section`, :meth:`~RuleSystem.invariants`
  (what must always hold, checked after every event of the conformance suite's games),
  :meth:`~RuleSystem.decks_in_play`, :meth:`~RuleSystem.readers`,
  :meth:`~RuleSystem.command_readers`, :meth:`~RuleSystem.at_version`,
  :meth:`~RuleSystem.game_die_kinds`, :meth:`~RuleSystem.data_hash`,
  :meth:`~RuleSystem.recorded_command`, :meth:`~RuleSystem.parse_command`, and the wording ones
  when neither ``labels``, ``narration`` nor ``board`` fits (:meth:`~RuleSystem.label`,
  :meth:`~RuleSystem.prompt`, :meth:`~RuleSystem.describe_command`,
  :meth:`~RuleSystem.describe_event`, :meth:`~RuleSystem.render_text`).
- **Given, not overridden.** :meth:`~RuleSystem.scenario`, :attr:`~RuleSystem.has_secrets` (it
  declares ``readers`` or ``command_readers``), :attr:`~RuleSystem.offers_rollouts`,
  :meth:`~RuleSystem.check_owner_data`; for ``setup``, :func:`options_as` and :func:`first_seats`
  (the refusals ``<id>.bad_option`` and ``<id>.bad_seats``), and :func:`refused_data` for
  owner data that breaks the rules: the package still declares each code it has them raise in
  its ``violations.json``.
- **A new hidden-hand card game** touches its own package (``engine.py`` with the declarations
  above, ``commands.py``, ``state.py``, ``events.py``, ``rules.py``, ``evolve.py``, ``view.py``,
  ``view_types.py``, ``labels.py``, ``narrate.py``, ``hidden.py`` for ``determinize``,
  ``policy.py`` if it has a habit, ``invariants.py`` if it declares them (a function
  ``(rules, state) -> list[str]`` the engine names: ``invariants = card_conservation``),
  ``data.py`` and its data files, ``violations.json``, ``RULES_NOTES.md``), its entry in the
  registry (its import and its instance), and its own tests (``tests/rules/<package>/``: a
  test that breaks a played state and finds its invariants report it, the rulebook's examples).
  Nothing in analysis/, projections/, api/ or the suites that read the registry names it: the
  conformance suite, tests/rules/test_every_game_ends.py and the generated-client test play it
  (their first scenario with the fewest seats, until a case of its own is named there). The
  OpenAPI document lists its command, view and choice types, so ``make openapi`` writes it
  again (``openapi/openapi.json``; a test finds it out of date). The viewer draws a board it has
  no renderer for as a tree of the view's JSON.
- **Setup deals nothing.** :meth:`~RuleSystem.setup` has no :class:`~domain.rng.Rng`: a game
  whose opening is shuffled or dealt begins with a command that does it (The Kingdoms'
  ``prepare``, Saline's ``prepare``), listed to the first seat.

Hidden information (DESIGN.md, "Hidden information"), the pattern every rule system follows:

- **Who reads an event.** :meth:`RuleSystem.readers` names the seats that may read an event
  (``None``: everyone, the default). The core seals every other reader's copy: its ``data``
  becomes ``{"sealed": SEAL, "for": [seats]}`` and the hash chain covers that sealed form
  (``domain/seals.py``). A secret choice (a card discarded face down) also seals the
  ``DecisionTaken`` that records it, through :meth:`RuleSystem.command_readers`. Keep what is
  public and what is secret in separate events: "p2 draws a card" (public: the hand's size) and
  "p2 draws the Gabelou" (sealed for p2), so a spectator's copy says everything it may.
- **Cards.** A deck is shuffled with ``rng.shuffle(deck, size)`` (a public ``CardsShuffled``:
  the draw numbers, never the order) and read in ``decide`` with ``rng.order(shuffle)``; each
  drawn card is recorded in a rule-system event sealed for the drawing seat. Draw the first card
  in the shuffle's order *that is still in the deck* (not "the n-th card"): the same card in the
  game itself, and a fresh, consistent order in a fork that starts with fresh dice.
- **Voided play.** When a ruling voids play, the core shuffles again every deck
  :meth:`RuleSystem.decks_in_play` names in the state the void leaves (a public
  ``VoidedCardsReshuffled`` after the ``DecisionsVoided``, at fresh draws; issue 30), so no card
  seen in the voided play comes back in the same place. ``evolve`` folds it as a new order of
  the same deck: unlike the rule system's own shuffle, nothing is gathered back into it
  (``VoidedCardsReshuffled`` subclasses ``CardsShuffled``: match it first where the two differ).
- **The view.** :meth:`RuleSystem.view` has no default that shows everything: each rule system
  writes its own. A seat sees its own hand face up; every other hand as a count; a deck as a
  count of cards left (its order is never in the state). ``seat=None`` is a spectator. Once the
  game has ended the core reveals the record; the view may then show every hand. The
  conformance suite holds a view to this strictly: where ``determinize`` deals again, a seat's
  view (and the spectator's) of the dealt-again state must be byte for byte its view of the
  true one; elsewhere no string that only a sealed event carried may appear in another reader's
  view.
- **Rollouts (analysis).** A rollout (analysis/, issue 19) plays a position on at random; from
  a reader's side it must never read what the reader may not see. So every rule system declares
  :meth:`RuleSystem.determinize`, and there is no default that sees everything: it deals again
  every card the readers ``seen`` may not see, from the cards they cannot tell apart, keeping
  what they see (their own hands, the table, every count), with the random source it is handed
  (``rnd``, a ``random.Random``: the rule code itself never imports ``random``). A rule system
  that keeps no secrets declares ``determinize = keeps_no_secrets``; one with secrets that
  offers no rollouts declares ``determinize = offers_no_rollouts``. :func:`check_declared` (run
  by the registry at import) refuses a rule system that keeps secrets (it declares
  :meth:`RuleSystem.readers`) and declares neither its own ``determinize`` nor
  ``offers_no_rollouts``, one that declares nothing at all, and one that declares a
  ``rollout_policy`` and ``offers_no_rollouts``. A rule system that offers rollouts plays the
  policy ``random``, and ``heuristic`` when it declares its ``rollout_policy``
  (analysis/rollout.py asks it: ``policies``).
- **Which events ``evolve`` receives:** ``DecisionTaken``, ``DiceRolled`` (and ``DiceForced``),
  ``CardsShuffled``, ``GameEnded``, ``SeedRevealed`` and the rule system's own events, in
  record order; never the audit events (``Annotated``, disputes, rulings, ``AbandonAgreed``,
  an umpire's ``Inspected``), which change no rule state. Pass any other event through unchanged.

Out-of-turn play (a "priority" or "interrupt" window; issue 26), the contract every rule system
whose cards or powers may be used "at any time" follows:

- **Declaring it.** A rule system that holds a step (an action announced, a card played, a draw)
  so that other seats may act before it resolves keeps a :class:`Window` in its state, opened by
  one of its own events (``Window.open``), and returns it from :meth:`RuleSystem.window`. What
  the window's seats may do is the rule system's: :meth:`RuleSystem.legal_commands` lists it and
  :meth:`RuleSystem.decide` accepts exactly that (a play, or a pass).
- **Who acts.** While a window is open, :meth:`RuleSystem.to_act` answers ``window.waiting``: the
  seats that may act out of turn now, in the window's priority order (the order of the table
  from the seat whose step is held). The seat whose step is held does not act until it closes.
  ``seats`` must not depend on anything a seat keeps secret (``to_act`` is public): open the
  window to every seat that may *publicly* be able to act (one holding any card), and let each
  seat's ``legal-commands`` (read with its own token) say what it may play; a seat that holds
  nothing playable passes, and its pass tells nobody why.
- **Acting.** Each seat acts with its own token and its own Idempotency-Keys (a key is one
  seat's: two seats may use the same key). Any waiting seat may act, in any order: the server
  decides the commands of one game one at a time, in the order it records them, so when two seats
  act at once the first recorded resolves first and the second is decided against the position
  the first left (refused with 409 if it named the version it expected). A play resolves (or
  opens its own answers) before the held step; after it every seat of the window waits again
  (``Window.played``), since the position has changed.
- **Closing.** The window closes when no seat is waiting: each one has passed
  (``Window.passed``) since the last play in it. The rule system then resolves the held step in
  the same decision as the last pass. Nothing else (no clock, no arrival order of passes) closes
  it, so replaying the record closes it at the same event.
"""

from __future__ import annotations

import copy
import functools
import hashlib
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

import msgspec

from domain.clocks import loss_on_time
from domain.dice import DieKind
from domain.errors import DomainError
from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.words import NO_NAMES, Names, plural  # noqa: F401 - plural: for labels.py

State = TypeVar("State")
Command = TypeVar("Command")
T = TypeVar("T")


class TaggedCommand(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """What every rule system's commands subclass, each with its own ``tag``: a frozen Struct
    whose JSON names its ``type`` and that refuses a field it does not know."""


class TaggedChoice(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """What a package's choice types (``choice_type``) subclass: the command ``type`` a choice
    composes (its ``tag``), what it asks in words and, in the subclass, each field's values."""

    description: str


class RuleViolation(DomainError):
    """A command the rules refuse: a stable ``code``, a human ``message`` and the rulebook
    ``rule`` (section) it breaks. Raising one leaves the record unchanged."""


def options_as(system: str, options: dict[str, Any] | None, options_type: type[T], rule: str) -> T:
    """A rule system's ``setup``: ``options`` as ``options_type`` (a Struct of its options), or the
    ``<system>.bad_option`` refusal citing ``rule``."""
    try:
        return msgspec.convert(options or {}, options_type)
    except msgspec.ValidationError as error:
        raise RuleViolation(f"{system}.bad_option", f"options: {error}", rule) from None


def first_seats(system: str, scenario: Scenario, seats: Iterable[str], rule: str) -> tuple[str, ...]:
    """A rule system's ``setup``: ``seats`` when they are the first of the scenario's, in its order,
    as many as it takes; otherwise the ``<system>.bad_seats`` refusal citing ``rule``."""
    seats = tuple(seats)
    if seats != scenario.seats[:len(seats)] or not scenario.min_players <= len(seats) <= scenario.max_players:
        raise RuleViolation(f"{system}.bad_seats", f"{scenario.min_players} to {scenario.max_players} players in "
                            f"seats {', '.join(scenario.seats)}, in that order", rule)
    return seats


def refused_data(code: str, what: str, problems: list[str], rule: str) -> RuleViolation:
    """The refusal of owner-supplied data (:class:`OwnerData`): ``what``, then the first three of
    its ``problems`` (… for more); the problem carries every one."""
    shown = "; ".join(problems[:3]) + ("; …" if len(problems) > 3 else "")
    return RuleViolation(code, f"{what}: {shown}", rule, problems=problems)


def accepted(check: Callable[[State, str, Any], object], state: State, seat: str,
             commands: Iterable[Any]) -> list[Any]:
    """The commands among ``commands`` that ``check`` accepts (raises no RuleViolation for),
    in order: a rule system's legal commands defined from its candidates."""
    out = []
    for command in commands:
        try:
            check(state, seat, command)
        except RuleViolation:
            continue
        out.append(command)
    return out


class Violation(msgspec.Struct, frozen=True):
    """One code a rule system's :class:`RuleViolation` carries, as its problem page explains it
    (``GET /problems/<code>``): what the detail says (``summary``, as written: ``…`` stands for
    what the command names) and the rulebook sections it is raised under."""

    summary: str
    rules: tuple[str, ...] = ()


def declared_violations(path: Path) -> dict[str, Violation]:
    """A rule system's :attr:`RuleSystem.violations` as its package writes them, in
    ``violations.json``: each code with its ``summary`` and its ``rules`` (sections)."""
    return msgspec.json.decode(path.read_bytes(), type=dict[str, Violation])


# Violation codes shared by every rule system (STYLE.md, "What this adds up to"); a rule
# system's own are ``<its id>.<reason>``, declared in its :attr:`RuleSystem.violations`.
NOT_YOUR_TURN = "not_your_turn"
GAME_OVER = "game_over"
UNKNOWN_COMMAND = "unknown_command"
UNKNOWN_SCENARIO = "unknown_scenario"
SHARED_VIOLATIONS: Mapping[str, Violation] = {
    NOT_YOUR_TURN: Violation("… may not act now"),
    GAME_OVER: Violation("the game has ended"),
    UNKNOWN_COMMAND: Violation("malformed command: …"),
    UNKNOWN_SCENARIO: Violation("… has no scenario …; it has …"),
}


class Labels(Protocol):
    """What :attr:`RuleSystem.labels` declares (a rule system's ``labels.py``): each legal
    command and the game's question to a seat, in words."""

    def label(self, state: Any, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str: ...

    def prompt(self, state: Any, seat: str, players: Mapping[str, str]) -> str | None:
        """The game's question to ``seat``, one of the seats to act (it is asked of no other)."""


class Board(Protocol):
    """What :attr:`RuleSystem.board` declares (a rule system's ``view.py``): what ``seat`` (None:
    a spectator) may see, or ``everything`` once the seed is revealed; and the board as text."""

    def view(self, state: Any, seat: str | None, everything: bool = False) -> Any: ...

    def render_text(self, state: Any, names: Names, everything: bool = False) -> str: ...


class Narration(Protocol):
    """What :attr:`RuleSystem.narration` declares (a rule system's ``narrate.py``): a recorded
    command and one of its own events, each in one line, players named by ``names``."""

    def describe_command(self, command: dict[str, Any], names: Names) -> str: ...

    def describe_event(self, event_type: str, data: dict[str, Any], names: Names) -> str | None: ...


# A rollout policy (:attr:`RuleSystem.rollout_policy`): the rule system, the (determinized)
# state, the seat to act, its listed commands and the rollout's ``random.Random``; one of them.
Policy = Callable[[Any, Any, str, list[Any], Any], Any]


def any_of(commands: list[Any], rnd: Any) -> Any:
    """Any of ``commands``, each as likely (random-legal play; ``rnd``: a ``random.Random``)."""
    return commands[int(rnd.random() * len(commands))]


def best(commands: list[Any], score: Callable[[Any], float], rnd: Any) -> Any:
    """A command of the highest ``score``, ties broken at random by ``rnd``."""
    scores = [score(c) for c in commands]
    top = max(scores)
    tied = [c for c, s in zip(commands, scores) if s == top]
    return tied[rnd.randrange(len(tied))]


class Window(msgspec.Struct, frozen=True):
    """An out-of-turn window (see the module's docstring, "Out-of-turn play"): ``holder``'s step
    ``step`` (the rule system's word: "sell", "draw") waits while ``seats`` may act out of turn;
    ``waiting``: those that have not passed since it opened or since the last play in it."""

    holder: str
    step: str
    seats: tuple[str, ...]  # in priority order
    waiting: tuple[str, ...]

    @classmethod
    def open(cls, holder: str, step: str, seats: Iterable[str]) -> Window:
        seats = tuple(seats)
        return cls(holder, step, seats, seats)

    @property
    def closed(self) -> bool:
        return not self.waiting

    def passed(self, seat: str) -> Window:
        return msgspec.structs.replace(self, waiting=tuple(s for s in self.waiting if s != seat))

    def played(self, seats: Iterable[str] | None = None) -> Window:
        """After a play in the window every seat waits again (``seats``: the window's seats now,
        when who may act has changed; by default the same)."""
        seats = self.seats if seats is None else tuple(seats)
        return msgspec.structs.replace(self, seats=seats, waiting=seats)


class OwnerData(NamedTuple):
    """The owner's own data a game may be played with (:attr:`RuleSystem.owner_data`)."""

    option: str  # the option of POST /games (and of GameCreated) that carries it
    schema: dict[str, Any]  # its JSON Schema, served by GET /rules
    # every way a file breaks the schema or the rulebook's constraints for a scenario (None: for
    # some scenario); empty: usable
    problems: Callable[[Any, str | None], list[str]]


class Scenario(msgspec.Struct, frozen=True):
    """A scenario a rule system offers: its seats and how many players it takes."""

    id: str
    title: str
    seats: tuple[str, ...]
    min_players: int
    max_players: int
    data_file: str | None = None  # relative to the rule system's package; hashed into GameCreated


class RuleSystem(Generic[State, Command]):
    """Base class of every rule system. Subclasses set the class attributes and implement
    the methods the module's docstring ("The contract") names required; the registry holds one
    instance of each and :func:`check_declared` refuses one that leaves out a declaration."""

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    scenarios: ClassVar[dict[str, Scenario]]
    die_kinds: ClassVar[dict[str, DieKind]]
    command_type: ClassVar[Any]  # a tagged union of TaggedCommand subclasses (tag field "type")
    flexible_seats: ClassVar[bool] = False  # True: any 1..max seat ids, not only the listed ones
    package_dir: ClassVar[Path]
    # Owner-supplied data (DESIGN.md, "Card and map data"): the option of GameCreated that
    # carries the owner's own data file, which then replaces the scenario's data file; its
    # hash is the game's data hash, and the record carries the data itself.
    owner_data: ClassVar[OwnerData | None] = None
    # Whether legal_commands (with legal_choices) reaches every command decide accepts: a rule
    # system claims it only when a test enumerates what decide accepts and finds each there.
    legal_complete: ClassVar[bool] = False
    # Older versions whose records this rule system still replays, as they were played (issue
    # 26): a rule system that changes what it records or decides bumps ``version`` and names the
    # old one here; :meth:`at_version` plays a game recorded under it.
    older_versions: ClassVar[tuple[str, ...]] = ()
    # Versions recorded before a void shuffled the decks in play again (issue 30): their voids
    # record no VoidedCardsReshuffled, and their records replay so.
    voids_keep_order: ClassVar[tuple[str, ...]] = ()
    # Every code its RuleViolations carry but the shared ones (SHARED_VIOLATIONS), each with what
    # its problem page says: read from ``package_dir / "violations.json"`` (``__init_subclass__``).
    violations: ClassVar[Mapping[str, Violation]]
    # The state's fields the move list groups play by (:meth:`section`): its turn (or round, or
    # day) and its phase, None for one it has not. Required unless ``section`` is written.
    section_fields: ClassVar[tuple[str | None, str | None]]
    # The types of what :meth:`view` and each of :meth:`legal_choices` return (their JSON converts
    # to them), for the OpenAPI contract (domain/rules/schemas.py); None: not declared / no choices.
    view_type: ClassVar[Any] = None
    choice_type: ClassVar[Any] = None
    # What each seat sees, and the board as text (:meth:`view`, :meth:`open_view`, :meth:`render_text`):
    # the package's view.py, when its functions take the Board protocol's arguments.
    board: ClassVar[Board | None] = None
    # Legal commands and questions in words (:meth:`label`, :meth:`prompt`): the package's labels.py.
    labels: ClassVar[Labels | None] = None
    # Recorded commands and events in words (:meth:`describe_command`, :meth:`describe_event`).
    narration: ClassVar[Narration | None] = None
    # The rule system's own habit for rollouts (the policy ``heuristic``), pure and deterministic
    # given the ``rnd`` it is handed; None: rollouts play ``random`` only (module docstring, "Rollouts").
    rollout_policy: ClassVar[Policy | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A rule system's package declares its violation codes in its ``violations.json``: read
        once, when the class that declares ``package_dir`` is made (an explicit ``violations`` wins)."""
        super().__init_subclass__(**kwargs)
        if "package_dir" in cls.__dict__ and "violations" not in cls.__dict__:
            cls.violations = declared_violations(cls.package_dir / "violations.json")

    def at_version(self, version: str) -> "RuleSystem[State, Command]":
        """This rule system as it plays a record made under ``version`` (its own, or one of
        :attr:`older_versions`): by default a copy whose :attr:`version` is the recorded one, for
        a rule system whose ``setup`` reads :attr:`version` into its state and whose few changed
        rules read it there (Saladin, Saxon Shore, The Kingdoms); an override returns an engine of
        its own for the older version (Saline's ``Saline10``)."""
        return self if version == self.version else _at_version(self, version)

    # -- the interface --------------------------------------------------------------
    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> State:
        """The opening position of ``scenario`` for these seats."""
        raise NotImplementedError

    def to_act(self, state: State) -> list[str]:
        """The seats that may send a command now (empty once the game is over)."""
        raise NotImplementedError

    def window(self, state: State) -> Window | None:
        """The out-of-turn window open now, if any (module docstring, "Out-of-turn play"); None by
        default: a rule system without out-of-turn play declares nothing."""
        return None

    def legal_commands(self, state: State, seat: str) -> list[Command]:
        """Every command ``seat`` may send now; each one :meth:`decide` accepts."""
        raise NotImplementedError

    def legal_choices(self, state: State, seat: str) -> list[dict[str, Any]]:
        """Commands too many to list, described as choices a client composes: each a dict
        with the command ``type``, a ``description`` and, per field, the values it may take
        (the forms are the rule system's, documented in its RULES_NOTES.md). [] by default."""
        return []

    def listing_complete(self, state: State, seat: str) -> bool:
        """Whether :meth:`legal_commands` with :meth:`legal_choices` reaches every command
        :meth:`decide` accepts from ``seat`` now (``complete`` of GET /legal-commands). By
        default the class's :attr:`legal_complete`; a rule system complete in some states only
        says which (tests/rules/conformance.py tries it in played games)."""
        return self.legal_complete

    def decide(self, state: State, seat: str, command: Command, rng: Rng) -> list[EventData]:
        """Check ``command`` against the rules (raise :class:`RuleViolation`) and return
        the events it causes, dice and shuffles included, in order."""
        raise NotImplementedError

    def evolve(self, state: State, event: EventData) -> State:
        """Fold one event into the state: the only way state changes."""
        raise NotImplementedError

    def play(self, state: State, seat: str, command: Command, rng: Rng) -> tuple[list[EventData], State]:
        """:meth:`decide`, and the state its events leave: what a rollout needs (issue 19). A
        rule system whose ``decide`` folds as it goes (a :class:`Step`) returns that state."""
        events = self.decide(state, seat, command, rng)
        for event in events:
            state = self.evolve(state, event)
        return events, state

    def play_listed(self, state: State, seat: str, command: Command, rng: Rng) -> tuple[list[EventData], State]:
        """:meth:`play` for a command :meth:`legal_commands` has just listed for ``seat`` in
        ``state`` (a rollout plays nothing else): a rule system may skip checking it again.
        By default, :meth:`play`."""
        return self.play(state, seat, command, rng)

    def outcome(self, state: State) -> Outcome | None:
        """None while play goes on; how it ended once it has."""
        raise NotImplementedError

    def time_outcome(self, state: State, seat: str, seats: tuple[str, ...]) -> Outcome | None:
        """How a game ends when ``seat``'s flag falls (issue 29): by default, with two seats the
        other wins; with more, None (no rule says: an umpire adjudicates)."""
        return loss_on_time(seats, seat)

    def view(self, state: State, seat: str | None) -> Any:
        """What ``seat`` (or a spectator, for None) may see: JSON-ready builtins. No default that
        shows everything: the declared :attr:`board`'s ``view``, else the rule system's own (a hand
        is another seat's secret unless this rule system says it is not)."""
        if self.board is None:
            raise NotImplementedError(f"{type(self).__name__} must say what each seat may see (view)")
        return self.board.view(state, seat)

    def section(self, state: State) -> tuple[int | None, str | None]:
        """The turn (or round, or day) and the phase a spectator sees the game in: where the
        viewer's move list groups play (projections/outline.py). The state's
        :attr:`section_fields`; a rule system whose turn is not one field writes its own."""
        turn, phase = self.section_fields
        return (getattr(state, turn) if turn else None), (getattr(state, phase) if phase else None)

    def invariants(self, state: State) -> list[str]:
        """Every way ``state`` breaks what must always hold in a game of this rule system (every
        card in exactly one place; no count below zero), in words; [] by default (none declared).
        tests/rules/conformance.py checks them after every event of its seeded games."""
        return []

    def determinize(self, state: State, seen: frozenset[str], rnd: Any) -> State:
        """``state`` as the readers ``seen`` may know it, every card they may not see dealt again
        at random (``rnd``: a ``random.Random``, the rollout's) from the cards they cannot tell
        apart (module docstring, "Rollouts"). No default: each rule system declares its own,
        :func:`keeps_no_secrets` or :func:`offers_no_rollouts`."""
        raise NotImplementedError(f"{type(self).__name__} must say what a rollout may not see (determinize)")

    def decks_in_play(self, state: State) -> list[tuple[str, int]]:
        """Each deck whose order is hidden in ``state`` (it was shuffled) with two cards or more
        left in it, as ``(deck, size)`` for ``rng.shuffle``: what a void shuffles again (module
        docstring, "Voided play"). [] by default: a rule system without hidden draws."""
        return []

    def readers(self, state: State, event: EventData) -> frozenset[str] | None:
        """Who may read ``event`` (one of this rule system's own or a core one it emits),
        given the state before the event is folded; None: everyone (the default)."""
        return None

    def command_readers(self, state: State, seat: str, command: Command) -> frozenset[str] | None:
        """Who may read the ``DecisionTaken`` recording ``command`` (a secret choice such as
        a card discarded face down); None: everyone (the default)."""
        return None

    def render_text(self, state: State, names: Names = NO_NAMES, everything: bool = False) -> str:
        """A board a person can read at a glance, for ``herald replay show`` and the viewer;
        ``names``: how to name each seat's player (domain/rules/words.py); ``everything``: every
        hand, objective and card shown, as once the seed is revealed (else a spectator's board).
        The declared :attr:`board`'s; without one, the view as indented JSON."""
        if self.board is not None:
            return self.board.render_text(state, names, everything)
        view = self.open_view(state) if everything else self.view(state, None)
        return msgspec.json.format(msgspec.json.encode(view)).decode()

    def describe_command(self, command: dict[str, Any], names: Names = NO_NAMES) -> str:
        """A one-line narrative of a recorded command, for timelines; ``names`` says who sits in
        each seat (seat id -> player name), so lines name players, not seat ids. The declared
        :attr:`narration`'s; without one, the command's type."""
        if self.narration is None:
            return str(command.get("type", "?"))
        return self.narration.describe_command(command, names)

    def label(self, state: State, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str:
        """One readable line for a legal command in its JSON form ("Henry II looses at Al-Afdal
        (1 Order)"): names from the data, not ids; ``players`` (seat -> player name) where known.
        The declared :attr:`labels`' ``label``; without them, the command's type and fields in words."""
        return self.labels.label(state, seat, command, players) if self.labels else default_label(command)

    def prompt(self, state: State, seat: str, players: Mapping[str, str]) -> str | None:
        """What the game asks ``seat`` now, in words (the declared :attr:`labels`' ``prompt``, asked
        only of a seat to act); None when nothing is asked of it, or the rule system does not say."""
        if self.labels is None or seat not in self.to_act(state):
            return None
        return self.labels.prompt(state, seat, players)

    def open_view(self, state: State) -> Any:
        """The view once the seed is revealed, for every reader: every hand, objective and card
        shown (what the record then proves each seat held). A rule system with secrets says it (its
        :attr:`board`'s view of ``everything``, or its own); one without has nothing to show beyond
        a spectator's view."""
        if not self.has_secrets:
            return self.view(state, None)
        if self.board is None:
            raise NotImplementedError(f"{self.id} keeps secrets: it says how its view shows them all")
        return self.board.view(state, None, everything=True)

    def describe_event(self, event_type: str, data: dict[str, Any], names: Names = NO_NAMES) -> str | None:
        """A one-line narrative of one of this rule system's own events (or of a ``DiceRolled``
        it caused), in the rulebook's words ("Henry II looses at Ala Afdal: 1 lance"), naming
        players by ``names`` (the declared :attr:`narration`'s); None for the generic wording."""
        return None if self.narration is None else self.narration.describe_event(event_type, data, names)

    # -- shared helpers ---------------------------------------------------------------
    @property
    def offers_rollouts(self) -> bool:
        """Whether analysis may play this rule system's positions on (it does not declare
        ``determinize = offers_no_rollouts``): with ``random``, and its :attr:`rollout_policy`."""
        return type(self).determinize is not offers_no_rollouts

    @property
    def has_secrets(self) -> bool:
        """Whether this rule system keeps anything from some seats (it declares readers)."""
        cls = type(self)
        return cls.readers is not RuleSystem.readers or cls.command_readers is not RuleSystem.command_readers

    def scenario(self, scenario_id: str) -> Scenario:
        try:
            return self.scenarios[scenario_id]
        except KeyError:
            raise RuleViolation(
                UNKNOWN_SCENARIO, f"{self.id} has no scenario {scenario_id!r}; it has {', '.join(self.scenarios)}",
            ) from None

    def game_die_kinds(self, options: dict[str, Any] | None) -> dict[str, DieKind]:
        """The dice a game created with ``options`` rolls: ``die_kinds`` by default; a rule system
        whose owner data gives dice of its own (their faces) says so here."""
        return self.die_kinds

    def check_owner_data(self, data: Any, scenario_id: str | None = None) -> list[str]:
        """Every way ``data`` breaks the schema or the rulebook's constraints for ``scenario_id``
        (None: for some scenario), by :attr:`owner_data`'s ``problems`` (empty: usable)."""
        if self.owner_data is None:
            return [f"{self.id} takes no owner-supplied data"]
        if scenario_id is not None and scenario_id not in self.scenarios:
            return [f"{self.id} has no scenario {scenario_id!r}; it has {', '.join(self.scenarios)}"]
        return self.owner_data.problems(data, scenario_id)

    def data_hash(self, scenario_id: str, options: dict[str, Any] | None = None) -> str:
        """SHA-256 of the data the game plays with: the owner's data (``owner_data.option``,
        canonical JSON with sorted keys) when given, else the scenario's data file (or the rule
        system's id and version)."""
        owned = (options or {}).get(self.owner_data.option) if self.owner_data else None
        if owned is not None:
            return hashlib.sha256(msgspec.json.encode(owned, order="sorted")).hexdigest()
        data_file = self.scenario(scenario_id).data_file
        payload = (
            (self.package_dir / data_file).read_bytes()
            if data_file
            else f"{self.id}@{self.version}".encode()
        )
        return hashlib.sha256(payload).hexdigest()

    def recorded_command(self, command: Command) -> dict[str, Any]:
        """The command as ``DecisionTaken`` records it: every field (a rule system that added
        fields in a later version may leave them out of its older version's records)."""
        return msgspec.to_builtins(command)

    def parse_command(self, raw: Any) -> Command:
        """Decode a JSON-ready command into this rule system's command union."""
        try:
            return msgspec.convert({"command": raw}, _envelope(self.command_type)).command
        except msgspec.ValidationError as error:
            message = str(error).replace("`$.command", "`$")
            raise RuleViolation(UNKNOWN_COMMAND, f"malformed command: {message}") from None


def keeps_no_secrets(self: RuleSystem, state: Any, seen: frozenset[str], rnd: Any) -> Any:
    """The :meth:`RuleSystem.determinize` of a rule system that keeps no secrets: every reader
    sees the whole state, so a rollout may read it as it is."""
    return state


def offers_no_rollouts(self: RuleSystem, state: Any, seen: frozenset[str], rnd: Any) -> Any:
    """The :meth:`RuleSystem.determinize` of a rule system that keeps secrets and offers no
    rollouts (no analysis, no bot seat): any rollout from a reader's side is refused."""
    raise NotImplementedError(f"{self.id} keeps secrets and offers no rollouts")


def check_declared(rules: RuleSystem) -> RuleSystem:
    """``rules`` if it declares what the contract asks of every rule system by declaration
    (module docstring, "The contract" and "Rollouts"); TypeError naming what it leaves out otherwise."""
    cls = type(rules)
    if not isinstance(getattr(cls, "violations", None), Mapping):
        raise TypeError(f"{rules.id} declares no violations (the codes its RuleViolations carry)")
    foreign = [code for code in cls.violations if not code.startswith(f"{rules.id}.")]
    if foreign:
        raise TypeError(f"{rules.id} declares violations outside its own codes ({rules.id}.<reason>): {foreign[:3]}")
    if cls.view is RuleSystem.view and cls.board is None:
        raise TypeError(f"{rules.id} says neither its view nor its board: what each seat may see")
    if cls.section is RuleSystem.section and not hasattr(cls, "section_fields"):
        raise TypeError(f"{rules.id} says neither its section_fields nor its section (turn and phase)")
    if cls.rollout_policy is not None and not rules.offers_rollouts:
        raise TypeError(f"{rules.id} declares a rollout policy and offers_no_rollouts")
    hide = cls.determinize
    if hide is RuleSystem.determinize:
        raise TypeError(f"{rules.id} declares no determinize: its own, keeps_no_secrets or offers_no_rollouts")
    if rules.has_secrets and hide is keeps_no_secrets:
        raise TypeError(f"{rules.id} keeps secrets (it declares readers) but says a rollout may see them all")
    if not rules.has_secrets and hide is offers_no_rollouts:
        raise TypeError(f"{rules.id} keeps no secrets: it declares keeps_no_secrets")
    return rules


@functools.cache
def _at_version(rules: RuleSystem, version: str) -> RuleSystem:
    if version not in rules.older_versions:
        raise ValueError(f"{rules.id} does not replay version {version}")
    earlier = copy.copy(rules)
    earlier.version = version
    return earlier


def default_label(command: Mapping[str, Any]) -> str:
    """A command in words when its rule system has none: its type, then each field
    (``place: card Knight, sector 3``)."""
    words = str(command.get("type", "command")).replace("-", " ").replace("_", " ")
    fields = [f"{name.replace('_', ' ')} {_words(value)}" for name, value in command.items()
              if name != "type" and value not in (None, "", [], {})]
    return f"{words}: {', '.join(fields)}" if fields else words


def _words(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " + ".join(_words(v) for v in value)
    return str(value)


@functools.cache
def _envelope(command_type: Any) -> type[msgspec.Struct]:
    """A Struct holding one command: msgspec converts into a Struct field with the type
    analysed once, where converting into the bare union analyses it on every call (~8x slower)."""
    return msgspec.defstruct("CommandEnvelope", [("command", command_type)], frozen=True)


class Step(Generic[State]):
    """The events of one decision, folded as they are emitted so later rules see earlier ones.
    A rule system subclasses it with ``fold = staticmethod(its evolve)`` and its own helpers."""

    fold: ClassVar[Callable[[Any, EventData], Any]]

    def __init__(self, state: State, rng: Rng):
        self.state = state
        self.rng = rng
        self.events: list[EventData] = []

    def emit(self, event: EventData) -> None:
        self.events.append(event)
        self.state = type(self).fold(self.state, event)
