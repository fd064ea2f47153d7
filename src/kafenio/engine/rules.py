"""Rule options, presets and the validated rule set of a game.

Implements ``shared/rules/README.md`` §5: start from the defaults, apply presets left to right,
then individual overrides; exactly one **base** preset is used (the game's default base when the
caller names none) and any number of **modifier** presets stack on it. Every game declares its
options and presets once in a :class:`RuleBook`; its ``check`` hook refuses the combinations the
game's spec marks incompatible.

**Renamed and withdrawn names** (README §5): when a spec renames a preset or an option, the
rulebook lists the old name in ``aliases`` (old → new) and every entry point — ``build``,
``from_dict`` (old records), and through them the CLI, the lobby and the API — accepts it as
the new one; a withdrawn preset or option is listed in ``withdrawn`` (old → what replaces it)
and is refused with a message naming the replacement.

**Sources** (README §7): every option and preset names the published sources that the last column
of the spec's table gives for it, by key (``sources``; the titles and addresses are in
:mod:`kafenio.engine.sources`). A cell "all" stands for the game's main sources (Biriba: S0, S1,
PG-BIR; Buraco: PG-BUR, PG-BRR, S3; Basra: S2, PG-BAS, JW, CAC-BAS; Pişti: PG-PIS, WP-DE-PIS, LOD,
TRN); a row that gives the rule to no source (an engine safeguard, the default of an open
question) names none, and the lobby and ``kafenio rules list`` say so.

>>> book = RuleBook("demo", [Option("players", "int", 4, low=2, high=6),
...                          Option("sets", "bool", True)],
...                 [Preset("four", "base", {}), Preset("runs_only", "modifier", {"sets": False})])
>>> rules = book.build(["runs_only"], {"players": "2"})
>>> rules.players, rules.sets, rules.presets
(2, False, ('four', 'runs_only'))
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any

from kafenio.engine.errors import RulesError
from kafenio.engine.sources import SOURCES, Source
from kafenio.i18n import _, n_, number

OptionKind = str  # "bool" | "int" | "int?" | "enum" | "list" | "table"

#: the bounds of a number option that its rule book leaves open (every number a rule needs lies
#: well inside; a larger one could only stall a table or overflow its scores)
DEFAULT_LOW = -100_000
DEFAULT_HIGH = 100_000
#: entries of a ``list`` option or of a ``table`` option given inline, at most
MAX_ENTRIES = 64


@dataclass(frozen=True)
class Option:
    """One named rule option (README §5).

    Args:
        name: ``snake_case`` name, unique within the game.
        kind: ``bool``, ``int``, ``int?`` (``None`` = feature off), ``enum``, ``list`` (a list of
            ints) or ``table`` (a mapping given inline, or the name of one of ``choices``).
        default: the value, or a function of the other resolved values (e.g. ``4 × players``).
        choices: allowed values of an ``enum`` (or named tables of a ``table``).
        low, high: inclusive bounds of an ``int`` (and of each entry of a ``list`` or of a
            ``table`` given inline); :attr:`min` and :attr:`max` fill in the open ones.
        doc: one line saying what the option does, for help texts and the web lobby.
        sources: the keys of the published sources the spec's table gives for the option's
            values (:data:`kafenio.engine.sources.SOURCES`); empty for a rule of the engine's own
            that no source gives (an engine safeguard, a default where the sources are silent).
    """

    name: str
    kind: OptionKind
    default: Any
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    doc: str = ""
    sources: tuple[str, ...] = ()

    @property
    def numeric(self) -> bool:
        """True for the kinds whose values are (or hold) integers: ``int``, ``int?``, ``list``,
        ``table``."""
        return self.kind in ("int", "int?", "list", "table")

    @property
    def min(self) -> int | None:
        """The smallest number allowed (``low``, else :data:`DEFAULT_LOW`); ``None`` for a
        kind without numbers."""
        return (self.low if self.low is not None else DEFAULT_LOW) if self.numeric else None

    @property
    def max(self) -> int | None:
        """The largest number allowed (``high``, else :data:`DEFAULT_HIGH`); ``None`` for a
        kind without numbers."""
        return (self.high if self.high is not None else DEFAULT_HIGH) if self.numeric else None

    def coerce(self, value: Any) -> Any:
        """Check ``value`` (or parse it from a CLI string) against this option.

        Raises:
            RulesError: naming the option, with the allowed values.
        """
        if isinstance(value, str) and self.kind != "enum" and not (
                self.kind == "table" and value in self.choices):
            value = self._parse_text(value)
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(self.name, _("expected true or false, got {v!r}").format(v=value))
            return value
        if kind in ("int", "int?"):
            if value is None and kind == "int?":
                return None
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(self.name, _("expected an integer, got {v!r}").format(v=value))
            self._check_bounds(value)
            return value
        if kind == "enum":
            if value not in self.choices:
                raise RulesError(self.name, _("{v!r} is not one of {c}").format(
                    v=value, c=", ".join(map(str, self.choices))))
            return value
        if kind == "list":
            if not isinstance(value, (list, tuple)) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise RulesError(self.name, _("expected a list of integers, got {v!r}").format(
                    v=value))
            self._check_size(value)
            for v in value:
                self._check_bounds(v)
            return tuple(value)
        if kind == "table":
            if isinstance(value, str):
                if value not in self.choices:
                    raise RulesError(self.name, _("{v!r} is not one of {c}").format(
                        v=value, c=", ".join(map(str, self.choices))))
                return value
            if isinstance(value, Mapping):
                self._check_size(value)
                for key, entry in value.items():
                    if not isinstance(key, str) or len(key) > 8:
                        raise RulesError(self.name, _("{k!r} is not a rank or a card").format(k=key))
                    if isinstance(entry, int) and not isinstance(entry, bool):
                        self._check_bounds(entry)
                return dict(value)
            raise RulesError(self.name, _("expected a table name or a mapping, got {v!r}").format(
                v=value))
        raise AssertionError(f"unknown option kind {kind}")

    def _check_bounds(self, value: int) -> None:
        low, high = self.min, self.max
        assert low is not None and high is not None
        if value < low:
            raise RulesError(self.name, _("{v} is below the minimum {m}").format(v=_short(value), m=low))
        if value > high:
            raise RulesError(self.name, _("{v} is above the maximum {m}").format(v=_short(value), m=high))

    def _check_size(self, value: Sized) -> None:
        if len(value) > MAX_ENTRIES:
            raise RulesError(self.name, n_("{n} entry; at most {m}", "{n} entries; at most {m}", len(value))
                             .format(n=number(len(value)), m=number(MAX_ENTRIES)))

    def _parse_text(self, text: str) -> Any:
        low = text.strip().lower()
        if self.kind == "bool":
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            return text
        if self.kind == "int?" and low in ("null", "none", "off"):
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            if self.kind == "list":
                parts = [p for p in text.replace("[", "").replace("]", "").split(",") if p.strip()]
                try:
                    return [int(p) for p in parts]
                except ValueError:
                    return text
            return text


def _short(value: int) -> str:
    """An integer as text, a huge one by its digit count (it is shown in an error)."""
    text = str(value)
    digits = len(text.lstrip("-"))
    return text if len(text) <= 12 else n_("a number of {n} digit", "a number of {n} digits", digits).format(
        n=number(digits))


@dataclass(frozen=True)
class Preset:
    """A named partial list of option values: a ``base`` (exactly one is used) or a ``modifier``;
    ``sources``: the keys of the published sources of its rules (as :attr:`Option.sources`)."""

    name: str
    kind: str
    values: Mapping[str, Any]
    doc: str = ""
    sources: tuple[str, ...] = ()


@dataclass
class RuleBook:
    """A game's options, presets and constraints.

    Args:
        game: the game's name.
        options: every option, in the spec's table order.
        presets: every preset; the first base preset is the default base.
        check: called with the resolved values; raises :class:`RulesError` on an incompatible
            combination (the spec's "Constraints" paragraph).
    """

    game: str
    options: Sequence[Option]
    presets: Sequence[Preset]
    check: Callable[[dict[str, Any]], None] | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)
    withdrawn: Mapping[str, str] = field(default_factory=dict)
    by_name: dict[str, Option] = field(init=False)
    preset_by_name: dict[str, Preset] = field(init=False)

    def __post_init__(self) -> None:
        self.by_name = {o.name: o for o in self.options}
        self.preset_by_name = {p.name: p for p in self.presets}
        for entry in (*self.options, *self.presets):
            unknown = [key for key in entry.sources if key not in SOURCES]
            if unknown:
                raise AssertionError(f"{entry.name} of {self.game} cites unknown sources: {unknown}")
        for old, new in self.aliases.items():
            if new not in self.by_name and new not in self.preset_by_name:
                raise AssertionError(f"alias {old} of {self.game} names no option or preset: {new}")
            if old in self.by_name or old in self.preset_by_name or old in self.withdrawn:
                raise AssertionError(f"alias {old} of {self.game} is also a current or withdrawn name")

    def canonical(self, name: str) -> str:
        """The current name of a preset or option (README §5): an alias gives the name it stands
        for, any other name is returned unchanged.

        Raises:
            RulesError: ``name`` was withdrawn; the message names its replacement.
        """
        replacement = self.withdrawn.get(name)
        if replacement is not None:
            raise RulesError(name, _("withdrawn from {game}; use {new} instead").format(
                game=self.game, new=replacement))
        return self.aliases.get(name, name)

    def cited_sources(self) -> list[Source]:
        """The sources the options and presets cite (their ``sources``), each once, in the order
        they first appear (presets first)."""
        keys = dict.fromkeys(key for entry in (*self.presets, *self.options) for key in entry.sources)
        return [SOURCES[key] for key in keys]

    def aliases_of(self, name: str) -> list[str]:
        """The old names accepted for the preset or option ``name``."""
        return [old for old, new in self.aliases.items() if new == name]

    @property
    def default_base(self) -> str:
        """The base preset used when the caller names none."""
        return next(p.name for p in self.presets if p.kind == "base")

    def build(self, presets: str | Iterable[str] | None = None,
              overrides: Mapping[str, Any] | Iterable[str] | None = None) -> Rules:
        """Resolve defaults → base preset → modifier presets (in order) → overrides.

        Args:
            presets: a preset name or names (an alias stands for its preset); at most one base,
                any number of modifiers.
            overrides: ``{option: value}`` or CLI strings ``"option=value"``; string values are
                parsed by the option's type.

        Raises:
            RulesError: an unknown option or preset (listing the known ones), a withdrawn one
                (naming its replacement), a bad value, two base presets, or a combination the
                spec marks incompatible.
        """
        names = [presets] if isinstance(presets, str) else list(presets or [])
        chosen: list[Preset] = []
        for name in names:
            preset = self.preset_by_name.get(self.canonical(name))
            if preset is None:
                raise RulesError(name, _("unknown preset of {game}; the presets are: {known}")
                                 .format(game=self.game, known=", ".join(self.preset_by_name)))
            chosen.append(preset)
        bases = [p for p in chosen if p.kind == "base"]
        if len(bases) > 1:
            raise RulesError(bases[1].name, _("only one base preset may be used (already {first})")
                             .format(first=bases[0].name))
        if not bases:
            chosen.insert(0, self.preset_by_name[self.default_base])
        else:
            chosen.remove(bases[0])
            chosen.insert(0, bases[0])
        given: dict[str, Any] = {}
        for preset in chosen:
            given.update(preset.values)
        for key, value in self._pairs(overrides):
            key = self.canonical(key)
            option = self.by_name.get(key)
            if option is None:
                raise RulesError(key, _("unknown option of {game}; the options are: {known}")
                                 .format(game=self.game, known=", ".join(self.by_name)))
            given[key] = option.coerce(value)
        values = self.resolve(given)
        return Rules(self.game, values, tuple(p.name for p in chosen))

    def resolve(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in defaults (callable ones from the others), coerce and check every value.

        Raises:
            RulesError: as :meth:`build`.
        """
        given = {self.canonical(key): value for key, value in given.items()}
        for key in given:
            if key not in self.by_name:
                raise RulesError(key, _("unknown option of {game}").format(game=self.game))
        values: dict[str, Any] = {}
        deferred = []
        for option in self.options:
            if option.name in given:
                values[option.name] = option.coerce(given[option.name])
            elif callable(option.default):
                deferred.append(option)
            else:
                values[option.name] = option.coerce(option.default)
        for option in deferred:
            values[option.name] = option.coerce(option.default(values))
        if self.check is not None:
            self.check(values)
        return values

    def from_dict(self, data: Mapping[str, Any], presets: Sequence[str] = ()) -> Rules:
        """Rebuild a rule set from :meth:`Rules.to_dict` output (e.g. from a record).

        Raises:
            RulesError: an unknown option or a bad value.
        """
        return Rules(self.game, self.resolve(dict(data)), tuple(self.aliases.get(p, p) for p in presets))

    @staticmethod
    def _pairs(overrides: Mapping[str, Any] | Iterable[str] | None) -> Iterator[tuple[str, Any]]:
        if overrides is None:
            return
        if isinstance(overrides, Mapping):
            yield from overrides.items()
            return
        for item in overrides:
            key, sep, value = item.partition("=")
            if not sep:
                raise RulesError(item, _("write an option as name=value"))
            yield key.strip(), value.strip()


class Rules(Mapping):
    """An immutable, validated rule set: ``rules.num_players`` or ``rules["num_players"]``.

    Attributes:
        game: the game's name.
        presets: the presets it was built from (base first).
    """

    __slots__ = ("__dict__", "_values", "game", "presets")

    def __init__(self, game: str, values: Mapping[str, Any], presets: tuple[str, ...] = ()):
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "presets", presets)
        object.__setattr__(self, "_values", dict(values))
        # the options as instance attributes, read without a failed lookup first (engines read
        # them at every move); a name the class defines keeps meaning the class's attribute
        self.__dict__.update((k, v) for k, v in self._values.items() if not hasattr(Rules, k))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __reduce__(self) -> tuple:
        return (Rules, (self.game, self._values, self.presets))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Rules are immutable")

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self.game == other.game and self._values == other._values

    def __hash__(self) -> int:
        return hash((self.game, json.dumps(self.to_dict(), sort_keys=True)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (tuples become lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._values.items()}

    def __repr__(self) -> str:
        return f"Rules({self.game!r}, presets={list(self.presets)!r})"
