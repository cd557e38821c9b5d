"""What every presenter shares: the generic presenter and its hooks, the registry finding a game's
presenter by its slug, the words of choices as plain data, the phone controls built from them, a
posted control read back into an action, and the pages' small helpers (a renderer of view dicts,
seat colours, names). Plain functions of plain data: no model, no query.

A game's presenter (``games/presenters/<slug>.py``, module attribute ``PRESENTER``) subclasses
:class:`Presenter` and overrides what its pages need: its view in its own words, its choices'
words (``words``: written into a :class:`Words`), its template folder, and the hooks the shared
pages call. The flow is one way: a game's presenter calls this module, never the other way round
(the controls read the game's words, never call it back). A game without a presenter of its own
gets the generic one; an error inside a presenter is raised, never hidden.

Controls come from the engine's choices (games.engines.kernel.choices), one form per choice: a
stepper, buttons or a picker, boxes to tick. The page posts ``choice`` and one ``p_<name>`` field
per parameter; ``action_from_post`` reads them back into an action. The engine then decides."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from typing import Any, cast
from urllib.parse import urlencode

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.engines.kernel.choices import Choice, Payment
from games.translation import say_to_reader

# ---- A small generic renderer of view dicts (definition lists and tables) ----------------


def key_words(key: Any) -> str:
    return str(key).replace("_", " ").capitalize()


def scalar_words(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return say_to_reader(value)


def phrase(value: Any) -> str:
    """A parameter of an action in words (never JSON)."""
    if isinstance(value, dict):
        return ", ".join(f"{key_words(k).lower()} {phrase(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " + ".join(phrase(v) for v in value) or _("nothing")
    if isinstance(value, str):
        return value.replace("_", " ")
    return scalar_words(value)


def generic_label(action: dict) -> str:
    """'Vote aye: power 3' from {'type': 'vote_aye', 'power': 3}: words, never raw JSON."""
    label = key_words(action.get("type", "?"))
    params = [f"{key_words(k).lower()} {phrase(v)}" for k, v in action.items() if k not in ("type", "seat")]
    return f"{label}: {', '.join(params)}" if params else label


# ---- Colours -----------------------------------------------------------------------------

# Seat colours (services.sessions.SEAT_COLOURS) as inks that read on paper (yellow is a dark mustard). A seat
# of a campaign night holds its House's colour itself, "#rrggbb" (campaign.colours): shown as it is.
SEAT_HEX = {
    "red": "#b3261e",
    "blue": "#1f5fa8",
    "green": "#2e7d32",
    "yellow": "#a67c00",
    "purple": "#6a3d9a",
    "orange": "#c45d12",
    "teal": "#00796b",
    "grey": "#5f5f5f",
}


HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def seat_hex(colour: str) -> str:
    if HEX_COLOUR.fullmatch(colour or ""):
        return colour
    return SEAT_HEX.get(colour or "", "#5f5f5f")


INK, WHITE = "#1f1a14", "#ffffff"


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(hex_colour: str) -> str:
    """The text colour that reads best on a seat's colour (the "Your turn" banner wears the seat's
    colour: light Houses get dark ink, dark ones white), by WCAG contrast."""
    if not HEX_COLOUR.fullmatch(hex_colour or ""):
        return WHITE
    light = _luminance(hex_colour)
    on_white = 1.05 / (light + 0.05)
    on_ink = (light + 0.05) / (_luminance(INK) + 0.05)
    return WHITE if on_white >= on_ink else INK


def seat_name(names: dict[int, dict], index: Any) -> str:
    if index is None:
        return _("the table")
    info = names.get(index)
    return info["name"] if info else _("Seat {index}").format(index=index)


def and_join(names: Sequence[str]) -> str:
    """Names one after the other, "Anna and Bruno", in the reader's language."""
    return (" " + pgettext("between the last two names", "and") + " ").join(names)


# ---- The words of choices and the phone controls ----------------------------------------

BUTTON_OPTIONS = 4  # a single pick of at most this many options shows as buttons
SHORT_LABEL = 70  # more options than BUTTON_OPTIONS, none longer than this: two columns of them

POST_NOT_A_CHOICE = gettext_lazy("That is not something you can do now.")
POST_AMOUNT = gettext_lazy("Choose a whole number from {low} to {high}.")
POST_PICK = gettext_lazy("Choose one of the options offered.")
POST_CARDS = gettext_lazy("Choose from {low} to {high} of the cards offered.")
POST_CARDS_EXACTLY = gettext_lazy("Choose {count} of the cards offered.")
POST_TEXT = gettext_lazy("Type at most {most} characters.")
POST_PAYMENT = gettext_lazy("Choose one of the payments offered.")


def labelled_actions(choices: list[Choice]) -> list[tuple[Choice, str | None, Any, dict]]:
    """The concrete actions a game words one by one: a choice without parameters is its one action
    (its button), and each option of a choice with one parameter to pick is one (its button):
    ``(choice, parameter name or None, option, action)``."""
    found: list[tuple[Choice, str | None, Any, dict]] = []
    for choice in choices:
        params, base = choice["params"], {"type": choice["type"], "seat": choice["seat"]}
        if not params:
            found.append((choice, None, None, base))
        elif len(params) == 1:
            [(name, param)] = params.items()
            if param["kind"] in ("pick", "cards"):
                found += [(choice, name, value, {**base, name: value}) for value in param["options"]]
    return found


def offered(choices: list[Choice]) -> list[tuple[Choice, str, Any]]:
    """Every option a control shows: ``(choice, parameter name, option)`` of its picks and cards."""
    return [
        (choice, name, value)
        for choice in choices
        for name, param in choice["params"].items()
        if param["kind"] in ("pick", "cards")
        for value in param["options"]
    ]


def _value_key(value: Any) -> Any:
    """An option as a key: a scalar as it is (with its type: 1 is not True), else as JSON."""
    return (value.__class__, value) if isinstance(value, (str, int, float)) else json.dumps(value)


class Words:
    """The words of a screen's choices, as plain data: a game's presenter writes what it knows
    (``title_is``, ``option_is``, ...) before the controls are built, and the rest are the defaults
    below. The shared code reads them and never calls back into the game.

    ``hide_fixed``: a pick with a single option beside other parameters is not asked (a hidden
    field; the title names it)."""

    def __init__(self, names: Mapping[int, dict] | None = None, *, hide_fixed: bool = False):
        self.names = names or {}
        self.hide_fixed = hide_fixed
        self.param_labels: dict[str, str] = {}  # a parameter's label by its name, in every choice
        self._titles: dict[int, str] = {}
        self._payment_titles: dict[int, str] = {}
        self._options: dict[tuple[int, str, Any], str] = {}
        self._chips: dict[tuple[int, str, Any], list[str]] = {}
        self._payments: dict[tuple[int, str, Any], dict] = {}
        self._kept: dict[int, Choice] = {}

    def _key(self, choice: Choice) -> int:
        """A choice's words are kept for the choice they were written for (held: no id reused)."""
        self._kept.setdefault(id(choice), choice)
        return id(choice)

    # ---- What a game's presenter writes ---------------------------------------------------

    def title_is(self, choice: Choice, text: str) -> None:
        self._titles[self._key(choice)] = text

    def option_is(self, choice: Choice, name: str, value: Any, text: str) -> None:
        self._options[self._key(choice), name, _value_key(value)] = text

    def chips_are(self, choice: Choice, name: str, value: Any, chips: list[str]) -> None:
        self._chips[self._key(choice), name, _value_key(value)] = chips

    def payment_is(self, choice: Choice, name: str, option: Payment, shown: dict) -> None:
        self._payments[self._key(choice), name, _value_key(option["cards"])] = shown

    def payment_title_is(self, choice: Choice, text: str) -> None:
        self._payment_titles[self._key(choice)] = text

    # ---- What the controls read -----------------------------------------------------------

    def worth(self, choice: Choice, name: str, value: Any) -> int | None:
        """A number each card option adds to a running total the page shows, or None."""
        return None

    def chips(self, choice: Choice, name: str, value: Any) -> list[str]:
        """Colours drawn beside an option (a Balcony's Councilors), or none."""
        return self._chips.get((self._key(choice), name, _value_key(value)), [])

    def total_label(self, choice: Choice, name: str) -> str:
        return _("Total")

    def payment(self, choice: Choice, name: str, option: Payment) -> dict:
        """One payment's button: ``label`` (its cards), ``price`` and ``chips``; by default the
        engine's words for it (the price is in them)."""
        shown = self._payments.get((self._key(choice), name, _value_key(option["cards"])))
        return shown or {"label": say_to_reader(option["label"]), "price": "", "chips": []}

    def payment_title(self, choice: Choice, name: str) -> str:
        return self._payment_titles.get(self._key(choice)) or self.title(choice)

    def title(self, choice: Choice) -> str:
        """The game's title of the choice, else the engine's (its ``CHOICE_TITLES``), else its type
        in words."""
        given = self._titles.get(self._key(choice))
        return (
            given
            or say_to_reader(choice.get("title") or "")
            or str(choice["type"]).replace("_", " ").capitalize()
        )

    def param_label(self, choice: Choice, name: str) -> str:
        said = PARAM_WORDS.get(name)
        return self.param_labels.get(name) or (str(said) if said else name.replace("_", " ").capitalize())

    def option(self, choice: Choice, name: str, value: Any) -> str:
        given = self._options.get((self._key(choice), name, _value_key(value)))
        if given is not None:
            return given
        if name in ("to", "target", "heir", "seat") and isinstance(value, int) and value in self.names:
            return str(self.names[value]["name"])
        if isinstance(value, str):
            return say_to_reader(value).replace("_", " ").capitalize()
        if isinstance(value, (list, dict)):
            return ", ".join(map(str, value)) if isinstance(value, list) else json.dumps(value)
        return str(value)


# A parameter's label when the game gives none: its name in the reader's words.
PARAM_WORDS = {
    "amount": gettext_lazy("Amount"),
    "card": gettext_lazy("Card"),
    "cards": gettext_lazy("Cards"),
    "area": gettext_lazy("Area"),
    "changes": gettext_lazy("Changes"),
    "city": gettext_lazy("City"),
    "cities": gettext_lazy("Cities"),
    "permit": gettext_lazy("Permit"),
    "balcony": gettext_lazy("Balcony"),
    "colour": gettext_lazy("Colour"),
    "region": gettext_lazy("Region"),
    "label": gettext_lazy("Label"),
    "number": gettext_lazy("Number"),
    "row": gettext_lazy("Row"),
}


def _param_control(choice: Choice, name: str, param: Any, words: Words) -> dict:
    kind = param["kind"]
    control: dict[str, Any] = {
        "name": name,
        "field": f"p_{name}",
        "kind": kind,
        "label": words.param_label(choice, name),
    }
    if kind == "amount":
        control.update(min=param["min"], max=param["max"], value=param["min"])
    elif kind in ("pick", "cards"):
        control["options"] = [
            {
                "value": json.dumps(v),
                "label": words.option(choice, name, v),
                "worth": words.worth(choice, name, v),
                "chips": words.chips(choice, name, v),
            }
            for v in param["options"]
        ]
        short = all(len(o["label"]) <= SHORT_LABEL for o in control["options"])
        control["columns"] = 2 if len(control["options"]) > BUTTON_OPTIONS and short else 1
        if kind == "pick" and words.hide_fixed and len(param["options"]) == 1 and len(choice["params"]) > 1:
            control["kind"] = "fixed"
            control["value"] = control["options"][0]["value"]
        if kind == "cards":
            control.update(min=param["min"], max=param["max"])
            if any(o["worth"] is not None for o in control["options"]):
                control["total_label"] = words.total_label(choice, name)
    elif kind == "payment":
        control["kind"] = "pick"  # beside other choices to make: one of its options, as a radio
        control["options"] = [
            {"value": json.dumps(o["cards"]), "label": say_to_reader(o["label"]), "worth": None, "chips": []}
            for o in param["options"]
        ]
        control["columns"] = 1
    elif kind == "text":
        control["max_length"] = param["max_length"]
    return control


def payment_group(choice: Choice, words: Words, fields: list[tuple[str, str]] | None = None) -> dict | None:
    """A choice whose payment is its last decision (its other parameters have a single option, or
    ``fields`` carries them): one button per payment offered, with its price. None otherwise."""
    params = choice["params"]
    paying = [n for n, p in params.items() if p["kind"] == "payment"]
    if len(paying) != 1:
        return None
    name = paying[0]
    if fields is None:
        others = [(n, p) for n, p in params.items() if n != name]
        if any(p["kind"] != "pick" or len(p["options"]) != 1 for _, p in others):
            return None
        fields = [(f"p_{n}", json.dumps(p["options"][0])) for n, p in others]
    offers = []
    for option in params[name]["options"]:
        shown = words.payment(choice, name, option)
        cards = [(f"p_{name}", json.dumps(card)) for card in option["cards"]]
        offers.append(
            {
                "fields": [*fields, *cards],
                "label": shown["label"],
                "coins": shown["price"],
                "chips": shown["chips"],
            }
        )
    return {
        "kind": "offers",
        "type": choice["type"],
        "title": words.payment_title(choice, name),
        "tabs": [],
        "offers": offers,
        "footnote": "",
        "bargaining": False,
    }


def build_controls(choices: list[Choice], words: Words, to_act: list | None = None) -> list[dict]:
    """One control group per choice (``typed`` choices are the host's own forms, left out). With the
    view's ``to_act``, a choice for a seat the game is not waiting for is marked ``open``: open to
    that seat without claiming the turn (the engine offers it outside the turn); so is a choice the
    engine declares open (``open_to_all``), even for the seat whose turn it is."""
    groups = []
    for choice in choices:
        params = choice["params"]
        if any(p["kind"] == "typed" for p in params.values()):
            continue
        offers = payment_group(choice, words)
        if offers is not None:
            groups.append(offers)
            continue
        controls = [_param_control(choice, n, p, words) for n, p in params.items()]
        if controls and all(c["kind"] == "fixed" for c in controls):
            controls[-1]["kind"] = "pick"  # something is still shown and tapped: the last option
        picks = [c for c in controls if c["kind"] == "pick"]
        buttons = None
        # One short pick beside amounts or text: its options are the buttons (VOTE AYE / VOTE NAY).
        if (
            len(picks) == 1
            and len(picks[0]["options"]) <= BUTTON_OPTIONS
            or (len(picks) == 1 and len([c for c in controls if c["kind"] != "fixed"]) == 1)
        ):
            buttons = picks[0]
            controls = [c for c in controls if c is not buttons]
        groups.append(
            {
                "kind": "form",
                "type": choice["type"],
                "title": words.title(choice),
                "controls": controls,
                "buttons": buttons,
                "open": bool(choice.get("open"))
                or (to_act is not None and choice["seat"] is not None and choice["seat"] not in to_act),
            }
        )
    return groups


def _read(param: Any, raw: list[str]) -> Any:
    kind = param["kind"]
    if kind == "amount":
        try:
            value = int(raw[0])
        except (IndexError, ValueError):
            raise ValueError(str(POST_AMOUNT).format(low=param["min"], high=param["max"])) from None
        if not param["min"] <= value <= param["max"]:
            raise ValueError(str(POST_AMOUNT).format(low=param["min"], high=param["max"]))
        return value
    if kind in ("pick", "cards"):
        options = {json.dumps(v): v for v in param["options"]}
        if kind == "pick":
            if len(raw) != 1 or raw[0] not in options:
                raise ValueError(str(POST_PICK))
            return options[raw[0]]
        chosen = [options[r] for r in raw if r in options]
        if (
            len(chosen) != len(raw)
            or len(set(raw)) != len(raw)
            or not param["min"] <= len(raw) <= param["max"]
        ):
            if param["min"] == param["max"]:
                raise ValueError(str(POST_CARDS_EXACTLY).format(count=param["min"]))
            raise ValueError(str(POST_CARDS).format(low=param["min"], high=param["max"]))
        return chosen
    if kind == "payment":
        return _read_payment(param, raw)
    if kind == "text":
        text = (raw[0] if raw else "").strip()
        if not text or len(text) > param["max_length"]:
            raise ValueError(str(POST_TEXT).format(most=param["max_length"]))
        return text
    if kind == "flag":
        return bool(raw) and raw[0] in ("1", "on", "true")
    raise ValueError(str(POST_NOT_A_CHOICE))


def _read_payment(param: Any, raw: list[str]) -> list:
    """One of the payments offered: its cards posted one field each (the page's buttons), or as one
    list (a radio); in any order."""
    try:
        values = [json.loads(r) for r in raw]
    except ValueError:
        raise ValueError(str(POST_PAYMENT)) from None
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    posted = sorted(map(json.dumps, values))
    for option in param["options"]:
        if sorted(map(json.dumps, option["cards"])) == posted:
            return list(option["cards"])
    raise ValueError(str(POST_PAYMENT))


def action_from_post(choices: list[Choice], kind: str, getlist: Callable[[str], list[str]]) -> dict:
    """The concrete action a control group posted, or ValueError with a sentence. Several choices
    may share a type (one per Council to satisfy): the first that reads the posted values wins;
    when none does, the sentence of the one that read the most of them."""
    candidates = [
        c
        for c in choices
        if c["type"] == kind and not any(p["kind"] == "typed" for p in c["params"].values())
    ]
    if not candidates:
        raise ValueError(str(POST_NOT_A_CHOICE))
    refusals: list[tuple[int, str]] = []
    for choice in candidates:
        action: dict[str, Any] = {"type": choice["type"], "seat": choice["seat"]}
        try:
            for name, param in choice["params"].items():
                action[name] = _read(param, getlist(f"p_{name}"))
        except ValueError as exc:
            refusals.append((len(action), str(exc)))
            continue
        return action
    raise ValueError(max(refusals, key=lambda r: r[0])[1])


# ---- Steps: a decision asked over several screens (the values chosen so far ride in the query) ----

STEP_BACK = gettext_lazy("Back to your actions")


def step_query(**values: Any) -> str:
    """The query of a step's link: ``?step=acquire_permit&balcony=coast`` (None values left out)."""
    return "?" + urlencode({k: v for k, v in values.items() if v is not None})


def step_back(query: str = "?", label: str | None = None) -> dict:
    return {"kind": "back", "query": query, "label": label or str(STEP_BACK)}


def step_note(text: str, level: str = "") -> dict:
    return {"kind": "note", "text": text, "level": level}


def step_summary(rows: list[dict], title: str = "") -> dict:
    """What was chosen so far: rows of ``{"chips": [colours], "text": words}``."""
    return {"kind": "summary", "title": title, "rows": rows}


def step_links(kind: str, title: str, links: list[dict], grid: int = 0) -> dict:
    """Links to the next step (``{"query", "label", "detail", "chips", "data"}``, or ``"post"``: a
    choice without parameters, posted at once); ``grid``: in that many columns (0: one per line)."""
    return {"kind": "links", "type": kind, "title": title, "links": links, "grid": grid}


# ---- The presenters -------------------------------------------------------------------------

GENERIC_TEMPLATES = "games/generic"


@dataclass(frozen=True)
class SessionFacts:
    """What a presenter knows of a session besides its views: plain data, read once by the pages, so a
    presenter does no I/O of its own."""

    id: int
    version: int
    campaign_id: int | None
    seats: dict[int, dict]  # index -> the seat's infos (index, name, hex, is_bot, player)
    night_recorded: bool | None = None  # a campaign night: its result is in the campaign (None: no night)


class Presenter[View: Mapping[str, Any]]:
    """The generic presenter: no words of its own, the view drawn tidily as it is. A game's presenter
    names its engine's declared view (``Presenter[<Game>TableView]``), so mypy checks every key it
    reads against the engine's declaration. ``View``: what the table's view and a seat's share, as the
    engine declares it (a TypedDict of its ``player_view.py``); a seat's adds its ``private``."""

    # Where the game's partials live: ``<folder>/_seat.html`` (the middle of a phone's panel),
    # ``<folder>/_table.html`` (the middle of the host's panel) and, with a presented result,
    # ``<folder>/_result.html`` (the closed seat's page).
    template_folder = GENERIC_TEMPLATES

    def present(self, view: View, names: dict[int, dict], result: dict | None) -> dict | None:
        """What the game's templates draw; ``None``: the generic templates draw the raw view."""
        return None

    def private(self, view: View) -> dict | None:
        return None

    def words(self, view: View, names: dict[int, dict], choices: Sequence[Mapping[str, Any]]) -> Words:
        """The words of ``choices`` on this screen, as plain data (the defaults: none of the game's)."""
        return Words(names)

    def controls(
        self, choices: list[dict], view: View, words: Words, step: Mapping[str, str] | None
    ) -> list[dict]:
        """The control groups of a screen, from its words (``step``: the values chosen so far, from
        the page's query, for a game that asks its decisions step by step)."""
        to_act = view.get("to_act")
        return build_controls(
            cast(list[Choice], choices), words, to_act if isinstance(to_act, list) else None
        )

    def template(self, part: str) -> str:
        return f"{self.template_folder}/_{part}.html"

    # ---- The host's screen: choices the table answers with forms of its own ----------------

    def table_choices(self, choices: list[dict]) -> list[dict]:
        """The table's choices shown as controls (the rest get the game's own forms)."""
        return choices

    def table_forms(self, *, facts: SessionFacts, table: dict, bound: dict) -> dict[str, Any]:
        """Extra context for the game's table partial (``bound``: refused forms, kept as typed)."""
        return {}

    def compose_form(self, *, kind: str, data: Any, facts: SessionFacts, table: dict) -> Any | None:
        """A bound form of the table's own (``kind`` from the posted ``compose`` field), with
        ``action()`` and ``cleaned_data['version'/'key']``; ``None``: the game has no such form."""
        return None


# ---- The registry: a game's presenter, found by its slug ---------------------------------


class GenericPresenter(Presenter[dict[str, Any]]):
    """For games with no presenter of their own (the test engines): the view dict, tidily."""


GENERIC = GenericPresenter()
PRESENTERS_PACKAGE = "games.presenters"


def presenter_for(slug: str) -> Presenter[Any]:
    """The presenter of a game, found by its slug: ``games/presenters/<slug>.py`` defines
    ``PRESENTER``. A game with no such module gets the generic presenter; an error inside a
    presenter's module is raised, never hidden."""
    name = f"{PRESENTERS_PACKAGE}.{slug}"
    if not slug.isidentifier() or find_spec(name) is None:
        return GENERIC
    presenter: Presenter[Any] = import_module(name).PRESENTER
    return presenter
