"""The King's Dilemma's table forms: what the host types from a physical card (its front when drawn,
its outcome read from the back, a printed effect applied by hand). Reached through the presenter's
hooks (``games.presenters.base.Presenter.table_forms`` and ``compose_form``)."""

import re
import secrets
from collections.abc import Sequence
from typing import Any

from django import forms
from django.urls import reverse

from games import selectors
from games.kings_dilemma.data import RESOURCES
from games.models import GameSession

RESOURCE_ROWS = list(RESOURCES)  # the engine's data owns the rows
RESOURCE_MOVES_HELP = "In order, left to right, e.g. “wealth +2, morale -1”"
RESOURCE_MOVES_FORMAT = "Write moves like “wealth +2, morale -1” (rows: {rows})."
MOVE_PATTERN = re.compile(r"^\s*([a-z]+)\s*([+-]\s*\d+)\s*$")


def parse_resource_moves(text: str) -> list[list]:
    moves = []
    for part in filter(None, (p.strip() for p in (text or "").lower().split(","))):
        match = MOVE_PATTERN.match(part)
        if not match or match.group(1) not in RESOURCE_ROWS:
            raise forms.ValidationError(RESOURCE_MOVES_FORMAT.format(rows=", ".join(RESOURCE_ROWS)))
        moves.append([match.group(1), int(match.group(2).replace(" ", ""))])
    return moves


TOKEN_CHOICES = [("", "—"), ("up", "▲ up"), ("down", "▼ down")]
STICKER_TOKEN_CHOICES = [("", "—"), ("positive", "Positive sticker"), ("negative", "Negative sticker")]
FRONT_EMPTY = "Type the card's number and its title as printed on the front."


class DilemmaCardForm(forms.Form):
    """The front of the Dilemma card drawn: number, title, question, and the Outcome tokens of each
    side (rulebook "Place the Outcome Tokens on the Balance"). The back is typed after the vote."""

    number = forms.IntegerField(min_value=1, max_value=999, label="Card number")
    title = forms.CharField(max_length=120, label="Title")
    question = forms.CharField(max_length=300, required=False, label="Question (optional)")
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for side in ("aye", "nay"):
            for row in RESOURCE_ROWS:
                self.fields[f"{side}_{row}"] = forms.ChoiceField(
                    required=False, choices=TOKEN_CHOICES, label=f"{side.upper()}: {row.capitalize()}"
                )
            self.fields[f"{side}_sticker"] = forms.ChoiceField(
                required=False, choices=STICKER_TOKEN_CHOICES, label=f"{side.upper()}: Chronicle sticker"
            )

    def action(self) -> dict:
        data = self.cleaned_data
        card = {"number": data["number"], "title": data["title"], "question": data.get("question", "")}
        for side in ("aye", "nay"):
            card[side] = {
                "resources": [
                    [row, data[f"{side}_{row}"]] for row in RESOURCE_ROWS if data.get(f"{side}_{row}")
                ],
                "sticker": data.get(f"{side}_sticker") or None,
            }
        return {"type": "draw_dilemma", "card": card}


class KnownCardForm(forms.Form):
    """A card met before, drawn by its number: its front is known, its back stays hidden."""

    number = forms.IntegerField(min_value=1, max_value=999)
    version = forms.IntegerField(min_value=0)
    key = forms.CharField(max_length=100, required=False)

    def action(self) -> dict:
        return {"type": "draw_dilemma", "card": {"number": self.cleaned_data["number"]}}


class OutcomeForm(forms.Form):
    """The winning side's outcome as the back of the card says, typed after the vote."""

    resources = forms.CharField(required=False, label="Resource moves", help_text=RESOURCE_MOVES_HELP)
    sticker = forms.IntegerField(required=False, min_value=1, max_value=177, label="Chronicle sticker number")
    sticker_row = forms.ChoiceField(
        required=False,
        choices=[("", "—"), *[(r, r.capitalize()) for r in RESOURCE_ROWS]],
        label="Sticker row",
    )
    sticker_positive = forms.ChoiceField(
        required=False, choices=[("1", "Positive"), ("0", "Negative")], label="Sticker kind"
    )
    envelope = forms.IntegerField(required=False, min_value=0, max_value=74, label="Envelope")
    lightning = forms.BooleanField(required=False, label="The lightning is on the central space of the back")
    note = forms.CharField(required=False, max_length=200, label="Anything else it says (a note)")
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    @staticmethod
    def initial_from(outcome: dict | None) -> dict:
        """The stored back of a card met before, offered again at the resolution."""
        if not outcome:
            return {}
        sticker = outcome.get("sticker") or {}
        return {
            "resources": ", ".join(f"{row} {amount:+d}" for row, amount in outcome.get("resources", [])),
            "sticker": sticker.get("number"),
            "sticker_row": sticker.get("row", ""),
            "sticker_positive": "1" if sticker.get("positive", True) else "0",
            "envelope": outcome.get("envelope"),
            "lightning": bool(outcome.get("lightning")),
            "note": outcome.get("note", ""),
        }

    def clean(self):
        data = self.cleaned_data
        try:
            data["resources"] = parse_resource_moves(data.get("resources", ""))
        except forms.ValidationError as error:
            self.add_error("resources", error)
        if data.get("sticker") and not data.get("sticker_row"):
            self.add_error("sticker_row", "Which Resource row does the sticker go to?")
        return data

    def action(self) -> dict:
        data = self.cleaned_data
        sticker = None
        if data.get("sticker"):
            sticker = {
                "number": data["sticker"],
                "row": data["sticker_row"],
                "positive": data.get("sticker_positive") != "0",
            }
        outcome = {
            "resources": data["resources"],
            "sticker": sticker,
            "envelope": data.get("envelope"),
            "lightning": bool(data.get("lightning")),
            "note": data.get("note", ""),
        }
        return {"type": "read_outcome", "outcome": outcome}


class CardEffectForm(forms.Form):
    """A printed effect the app cannot know, applied by the host (docs/rules-decisions.md)."""

    KINDS = [
        ("move_resource", "Move a Resource (with Momentum)"),
        ("adjust", "Give or take Coins, Power, Prestige or Crave"),
        ("mystery_sticker", "Attach a Mystery sticker"),
        ("to_event_area", "Send the card to the Event area (Event and Trigger cards)"),
    ]
    kind = forms.ChoiceField(choices=KINDS)
    label = forms.CharField(max_length=80, help_text="What the card says, in a few words")
    row = forms.ChoiceField(
        required=False, choices=[("", "—"), *[(r, r.capitalize()) for r in RESOURCE_ROWS]]
    )
    target = forms.TypedChoiceField(required=False, coerce=int, choices=(), label="House")
    what = forms.ChoiceField(
        required=False,
        choices=[
            ("", "—"),
            ("coins", "Coins"),
            ("power", "Power"),
            ("prestige", "Prestige"),
            ("crave", "Crave"),
        ],
    )
    amount = forms.IntegerField(
        required=False, min_value=-20, max_value=20, help_text="Negative to take away or move down"
    )
    letter = forms.ChoiceField(
        required=False, choices=[("", "—"), *[(c, c) for c in "ABCDEFGHIJKL"]], label="Mystery letter"
    )
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    NEEDS = {
        "move_resource": ("row", "amount"),
        "adjust": ("target", "what", "amount"),
        "mystery_sticker": ("letter",),
        "to_event_area": (),
    }

    def __init__(self, *args, seats: Sequence[tuple[int, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        target = self.fields["target"]
        assert isinstance(target, forms.ChoiceField)
        target.choices = [("", "—"), *seats]

    def clean(self):
        data = self.cleaned_data
        for name in self.NEEDS.get(data.get("kind") or "", ()):
            if data.get(name) in (None, ""):
                self.add_error(name, "Needed for this effect.")
        return data

    def action(self) -> dict:
        data = self.cleaned_data
        return {
            "type": data["kind"],
            "label": data["label"],
            **{name: data[name] for name in self.NEEDS[data["kind"]]},
        }


# ---- The host's screen: which choices get these forms, and the forms' context ---------------

TYPED_TABLE_ACTIONS = {
    "draw_dilemma",
    "read_outcome",
    "move_resource",
    "adjust",
    "mystery_sticker",
    "to_event_area",
}


def _seats(session: GameSession) -> list[tuple[int, str]]:
    return [(s.index, s.name) for s in selectors.session_seats(session=session)]


def table_forms(*, session: GameSession, table: dict, bound: dict) -> dict[str, Any]:
    """The host's forms for what the physical cards say; ``bound`` keeps a refused form as typed
    (by its ``compose`` kind; a card picked from those met before is not typed, so not kept)."""
    types = {a["type"] for a in table["legal_actions"]}
    view = table["view"]
    initial = {"version": session.version, "key": secrets.token_urlsafe(12)}
    met = set(view.get("cards_drawn") or [])
    known = [
        {"number": int(n), "title": card.get("title") or f"Dilemma {n}"}
        for n, card in sorted(session.config.get("known_cards", {}).items(), key=lambda kv: int(kv[0]))
        if int(n) not in met
    ]
    context = {
        "kd_draw_form": bound.get("draw") or DilemmaCardForm(initial=initial)
        if "draw_dilemma" in types
        else None,
        "kd_outcome_form": (
            bound.get("outcome")
            or OutcomeForm(initial={**initial, **OutcomeForm.initial_from(view.get("known_outcome"))})
        )
        if "read_outcome" in types
        else None,
        "kd_effect_form": (bound.get("effect") or CardEffectForm(seats=_seats(session), initial=initial))
        if types & (TYPED_TABLE_ACTIONS - {"draw_dilemma", "read_outcome"})
        else None,
        "kd_known": known if "draw_dilemma" in types else [],
        "kd_compose_url": reverse("games:session_table_compose", args=[session.pk]),
    }
    game = session.chronicle_game
    if table["over"] and session.campaign_id and game is not None:
        if not game.recorded:
            context["kd_save_url"] = reverse("kd-night-record", args=[session.campaign_id, session.pk])
        else:
            context["kd_campaign_url"] = reverse("campaign-detail", args=[session.campaign_id])
    return context


def compose_form(*, kind: str, data: Any, session: GameSession) -> forms.Form | None:
    if kind == "draw":
        return DilemmaCardForm(data)
    if kind == "draw_known":
        return KnownCardForm(data)
    if kind == "outcome":
        return OutcomeForm(data)
    if kind == "effect":
        return CardEffectForm(data, seats=_seats(session))
    return None
