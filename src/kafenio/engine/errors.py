"""The project's errors. Each names what was wrong: the rule, the option, the card or the line.

Every error derives from :class:`KafenioError` (a ``ValueError``), so a caller can catch one
type; nothing that raises one of these has changed any state.
"""

from __future__ import annotations

from kafenio.i18n import _


class KafenioError(ValueError):
    """Base class of every error kafenio raises for bad input."""


class CardError(KafenioError):
    """A card string that is not in the spec's notation (README §2).

    Attributes:
        token: the bad token as given.
    """

    def __init__(self, token: str, reason: str):
        self.token = token
        super().__init__(_("bad card {token!r}: {reason}").format(token=token, reason=reason))


class RulesError(KafenioError):
    """An unknown option or preset, a bad value, or an incompatible combination.

    Attributes:
        option: the option (or preset) name the message is about.
    """

    def __init__(self, option: str, reason: str):
        self.option = option
        super().__init__(f"{option}: {reason}")


class IllegalAction(KafenioError):
    """An action that the rules do not allow now.

    Attributes:
        rule: the spec reference that forbids it, e.g. ``"biriba.md §5"``.
        action: the action as given (id or text), or ``None``.
        detail: the reason with its rule, without the action (``"… (biriba.md §5)"``).
    """

    def __init__(self, rule: str, reason: str, action: object = None):
        self.rule = rule
        self.action = action
        self.detail = _("{reason} ({rule})").format(reason=reason, rule=rule)
        super().__init__(_("illegal action: {detail}").format(detail=self.detail) if action is None else
                         _("illegal action {action!r}: {detail}").format(action=action, detail=self.detail))


class RecordError(KafenioError):
    """A game record that cannot be read or does not replay.

    Attributes:
        line: the 1-based line number of the first bad line (0 when the file itself is bad).
    """

    def __init__(self, line: int, reason: str):
        self.line = line
        super().__init__(_("record line {line}: {reason}").format(line=line, reason=reason) if line else
                         _("record: {reason}").format(reason=reason))
