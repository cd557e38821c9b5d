"""Phone controls built from the engine's choices (games.engines.kernel.choices): a stepper for an amount,
buttons or a picker for a House, a side or a card, boxes to tick for a set of cards. One form per
choice, so a decision fits one phone screen whatever a player holds.

A presenter gives the words: ``title(choice)`` (what the choice is), ``option(choice, name, value)``
(one option of a parameter) and ``param_label(choice, name)``. The page posts ``choice`` (the type)
and one ``p_<name>`` field per parameter; ``action_from_post`` reads them back into a concrete action
with the types the description asks for. The engine then decides.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from games.engines.kernel.choices import Choice, Payment

BUTTON_OPTIONS = 4  # a single pick of at most this many options shows as buttons
SHORT_LABEL = 70  # more options than BUTTON_OPTIONS, none longer than this: two columns of them

POST_NOT_A_CHOICE = "That is not something you can do now."
POST_AMOUNT = "Choose a whole number from {low} to {high}."
POST_PICK = "Choose one of the options offered."
POST_CARDS = "Choose from {low} to {high} of the cards offered."
POST_CARDS_EXACTLY = "Choose {count} of the cards offered."
POST_TEXT = "Type at most {most} characters."
POST_PAYMENT = "Choose one of the payments offered."


class Words:
    """Default words: the presenter of a game overrides what it knows.

    ``hide_fixed``: a pick with a single option beside other parameters is not asked (a hidden
    field; the title names it). ``worth(choice, name, value)``: a number each card option adds to a
    running total the page shows (the Gold of a payment), or None."""

    hide_fixed = False

    def __init__(self, names: Mapping[int, dict] | None = None):
        self.names = names or {}

    def worth(self, choice: Choice, name: str, value: Any) -> int | None:
        return None

    def chips(self, choice: Choice, name: str, value: Any) -> list[str]:
        """Colours drawn beside an option (a Balcony's Councilors), or none."""
        return []

    def total_label(self, choice: Choice, name: str) -> str:
        return "Total"

    def payment(self, choice: Choice, name: str, option: Payment) -> dict:
        """One payment's button: ``label`` (its cards), ``price`` and ``chips``; by default the
        engine's words for it (the price is in them)."""
        return {"label": option["label"], "price": "", "chips": []}

    def payment_title(self, choice: Choice, name: str) -> str:
        return self.title(choice)

    def title(self, choice: Choice) -> str:
        """The engine's title of the choice (its ``CHOICE_TITLES``), else its type in words."""
        return choice.get("title") or str(choice["type"]).replace("_", " ").capitalize()

    def param_label(self, choice: Choice, name: str) -> str:
        return name.replace("_", " ").capitalize()

    def option(self, choice: Choice, name: str, value: Any) -> str:
        if name in ("to", "target", "heir", "seat") and isinstance(value, int) and value in self.names:
            return str(self.names[value]["name"])
        if isinstance(value, str):
            return value.replace("_", " ").capitalize()
        if isinstance(value, (list, dict)):
            return ", ".join(map(str, value)) if isinstance(value, list) else json.dumps(value)
        return str(value)


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
            {"value": json.dumps(o["cards"]), "label": o["label"], "worth": None, "chips": []}
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
            raise ValueError(POST_AMOUNT.format(low=param["min"], high=param["max"])) from None
        if not param["min"] <= value <= param["max"]:
            raise ValueError(POST_AMOUNT.format(low=param["min"], high=param["max"]))
        return value
    if kind in ("pick", "cards"):
        options = {json.dumps(v): v for v in param["options"]}
        if kind == "pick":
            if len(raw) != 1 or raw[0] not in options:
                raise ValueError(POST_PICK)
            return options[raw[0]]
        chosen = [options[r] for r in raw if r in options]
        if (
            len(chosen) != len(raw)
            or len(set(raw)) != len(raw)
            or not param["min"] <= len(raw) <= param["max"]
        ):
            if param["min"] == param["max"]:
                raise ValueError(POST_CARDS_EXACTLY.format(count=param["min"]))
            raise ValueError(POST_CARDS.format(low=param["min"], high=param["max"]))
        return chosen
    if kind == "payment":
        return _read_payment(param, raw)
    if kind == "text":
        text = (raw[0] if raw else "").strip()
        if not text or len(text) > param["max_length"]:
            raise ValueError(POST_TEXT.format(most=param["max_length"]))
        return text
    if kind == "flag":
        return bool(raw) and raw[0] in ("1", "on", "true")
    raise ValueError(POST_NOT_A_CHOICE)


def _read_payment(param: Any, raw: list[str]) -> list:
    """One of the payments offered: its cards posted one field each (the page's buttons), or as one
    list (a radio); in any order."""
    try:
        values = [json.loads(r) for r in raw]
    except ValueError:
        raise ValueError(POST_PAYMENT) from None
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    posted = sorted(map(json.dumps, values))
    for option in param["options"]:
        if sorted(map(json.dumps, option["cards"])) == posted:
            return list(option["cards"])
    raise ValueError(POST_PAYMENT)


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
        raise ValueError(POST_NOT_A_CHOICE)
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

STEP_BACK = "Back to your actions"


def step_query(**values: Any) -> str:
    """The query of a step's link: ``?step=acquire_permit&balcony=coast`` (None values left out)."""
    return "?" + urlencode({k: v for k, v in values.items() if v is not None})


def step_back(query: str = "?", label: str = STEP_BACK) -> dict:
    return {"kind": "back", "query": query, "label": label}


def step_note(text: str, level: str = "") -> dict:
    return {"kind": "note", "text": text, "level": level}


def step_summary(rows: list[dict], title: str = "") -> dict:
    """What was chosen so far: rows of ``{"chips": [colours], "text": words}``."""
    return {"kind": "summary", "title": title, "rows": rows}


def step_links(kind: str, title: str, links: list[dict], grid: int = 0) -> dict:
    """Links to the next step (``{"query", "label", "detail", "chips", "data"}``, or ``"post"``: a
    choice without parameters, posted at once); ``grid``: in that many columns (0: one per line)."""
    return {"kind": "links", "type": kind, "title": title, "links": links, "grid": grid}
