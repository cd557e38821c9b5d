"""The King's Dilemma's table forms: what the host types from a physical card (its front when drawn,
its outcome read from the back, a printed effect applied by hand). Reached through the presenter's
hooks (``games.presenters.base.Presenter.table_forms`` and ``compose_form``)."""

import json
import secrets
from collections.abc import Sequence
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.player_view import KingsDilemmaView
from games.presenters.base import SessionFacts
from games.translation import say_to_reader

RESOURCE_ROWS = list(RESOURCES)  # the engine's data owns the rows
SIDES = ("aye", "nay")

# The front: each Resource's Outcome token per side is one tap (– ▲ ▼), the sticker token another.
TOKEN_CHOICES = [("", "–"), ("up", "▲"), ("down", "▼")]
TOKEN_WORDS = {"": gettext_lazy("no token"), "up": gettext_lazy("up"), "down": gettext_lazy("down")}
STICKER_TOKEN_CHOICES = [("", "–"), ("positive", "+"), ("negative", "−")]
STICKER_WORDS = {
    "": gettext_lazy("no sticker"),
    "positive": gettext_lazy("Positive sticker"),
    "negative": gettext_lazy("Negative sticker"),
}
TITLE_NEEDED = gettext_lazy("Card {number} was never met before: type its title as printed on the front.")
NUMBER_NEEDED = gettext_lazy("Type the card's number, or pick a card met before.")
PUT_BACK_FIRST = gettext_lazy(
    "If a card effect put it into the Dilemma deck, apply that effect first (Apply a card effect by hand)."
)
RESOURCE_NAMES = {
    "influence": pgettext_lazy("resource", "Influence"),
    "wealth": pgettext_lazy("resource", "Wealth"),
    "morale": pgettext_lazy("resource", "Morale"),
    "welfare": pgettext_lazy("resource", "Welfare"),
    "knowledge": pgettext_lazy("resource", "Knowledge"),
}
SIDE_NAMES = {"aye": gettext_lazy("AYE"), "nay": gettext_lazy("NAY")}


def resource_name(row: str) -> str:
    """A Resource row's name in the reader's language."""
    return str(RESOURCE_NAMES.get(row) or row.capitalize())


def _token_field(choices: Any, label: str) -> forms.ChoiceField:
    return forms.ChoiceField(required=False, choices=choices, label=label, widget=forms.RadioSelect)


class DilemmaCardForm(forms.Form):
    """The front of the Dilemma card drawn: number, title, question, and the Outcome tokens of each
    side (rulebook "Place the Outcome Tokens on the Balance"). The back is typed after the vote. A card
    met before (``known``: its front from the campaign) is drawn by picking it: its front fills in."""

    known = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=gettext_lazy("A card met before")
    )
    number = forms.IntegerField(required=False, min_value=1, max_value=999, label=gettext_lazy("Card number"))
    title = forms.CharField(required=False, max_length=120, label=gettext_lazy("Title"))
    question = forms.CharField(max_length=300, required=False, label=gettext_lazy("Question (optional)"))
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        known: Sequence[dict] = (),
        undrawable: dict[str, str] | None = None,
        put_back: Sequence[int] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.known_cards = {card["number"]: card for card in known}
        # The engine's refusals known from the number alone: asked before the title (``clean``), with
        # the way back for a card a printed effect may put into the deck (``put_back``).
        self.undrawable = {
            int(n): f"{say_to_reader(why)} {PUT_BACK_FIRST}" if int(n) in put_back else say_to_reader(why)
            for n, why in (undrawable or {}).items()
        }
        field = self.fields["known"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            ("", _("— a new card —")),
            *[(n, f"{n}: {c['title']}") for n, c in self.known_cards.items()],
        ]
        for side in SIDES:
            for row in RESOURCE_ROWS:
                self.fields[f"{side}_{row}"] = _token_field(TOKEN_CHOICES, _cell_name(side, row))
            self.fields[f"{side}_sticker"] = _token_field(STICKER_TOKEN_CHOICES, _cell_name(side, "sticker"))

    def _cell(self, side: str, row: str) -> dict:
        """One Outcome token as toggles: each option with its symbol and its words (for screen readers)."""
        field = self[f"{side}_{row}"]
        value = field.value() or ""
        words = STICKER_WORDS if row == "sticker" else TOKEN_WORDS
        return {
            "name": field.html_name,
            "errors": field.errors,
            "legend": _("{side}, {what}").format(side=SIDE_NAMES[side], what=_token_row(row)),
            "options": [
                {
                    "id": f"{field.auto_id}_{i}",
                    "value": choice,
                    "symbol": symbol,
                    "words": _("{side}, {what}: {token}").format(
                        side=SIDE_NAMES[side], what=_token_row(row), token=words[choice]
                    ),
                    "checked": choice == value,
                }
                for i, (choice, symbol) in enumerate(field.field.choices)  # type: ignore[attr-defined]
            ],
        }

    def grid(self) -> list[dict]:
        """The front as the table shows it: one row per Resource (and the sticker), AYE and NAY."""
        rows = [*RESOURCE_ROWS, "sticker"]
        return [
            {
                "name": _("Sticker") if row == "sticker" else resource_name(row),
                "aye": self._cell("aye", row),
                "nay": self._cell("nay", row),
            }
            for row in rows
        ]

    def _typed_front(self, data: dict) -> bool:
        return bool(
            data.get("title")
            or data.get("question")
            or any(data.get(f"{side}_{row}") for side in SIDES for row in [*RESOURCE_ROWS, "sticker"])
        )

    def _as_stored(self, data: dict) -> bool:
        """The front filled in from the campaign and left as it was (the host only confirmed)."""
        stored = front_fill(self.known_cards[data["number"]])
        return all(
            (data.get(name) or "") == (value or "") for name, value in stored.items() if name != "number"
        )

    def clean(self) -> Any:
        data = self.cleaned_data
        if data.get("number") is None and data.get("known") is not None:
            data["number"] = data["known"]
        number = data.get("number")
        if number is None:
            if "number" not in self.errors:
                self.add_error("number", str(NUMBER_NEEDED))
        elif number in self.undrawable:
            self.add_error("number", self.undrawable[number])
        elif number not in self.known_cards and not data.get("title"):
            self.add_error("title", str(TITLE_NEEDED).format(number=number))
        return data

    def action(self) -> dict:
        data = self.cleaned_data
        number = data["number"]
        if number in self.known_cards and (not self._typed_front(data) or self._as_stored(data)):
            return {"type": "draw_dilemma", "card": {"number": number}}  # its stored front, as stored
        card = {"number": number, "title": data.get("title", ""), "question": data.get("question", "")}
        for side in SIDES:
            card[side] = {
                "resources": [
                    [row, data[f"{side}_{row}"]] for row in RESOURCE_ROWS if data.get(f"{side}_{row}")
                ],
                "sticker": data.get(f"{side}_sticker") or None,
            }
        return {"type": "draw_dilemma", "card": card}


def _token_row(row: str) -> str:
    return _("Chronicle sticker") if row == "sticker" else resource_name(row)


def _cell_name(side: str, row: str) -> str:
    """One Outcome token of the front: "AYE: Wealth", "NAY: Chronicle sticker"."""
    return _("{side}: {what}").format(side=SIDE_NAMES[side], what=_token_row(row))


def front_fill(card: dict) -> dict:
    """A card met before as the draw form's fields (the page fills them in when it is picked)."""
    fields = {"number": card["number"], "title": card["title"], "question": card["question"]}
    for side in SIDES:
        tokens = dict(card["front"][side]["resources"])
        for row in RESOURCE_ROWS:
            fields[f"{side}_{row}"] = tokens.get(row, "")
        fields[f"{side}_sticker"] = card["front"][side]["sticker"] or ""
    return fields


MOVE_ROWS = 5  # the back's Resource moves, in order: room for a few
ROW_CHOICES = [("", "—"), *[(r, RESOURCE_NAMES.get(r) or r.capitalize()) for r in RESOURCE_ROWS]]
MOVE_WITHOUT_ROW = gettext_lazy("Which Resource does this move?")
STICKER_ROW_NEEDED = gettext_lazy("Which Resource row does the sticker go to?")


class OutcomeForm(forms.Form):
    """The winning side's outcome as the back of the card says, typed after the vote: Resource moves
    as picker and stepper rows (filled in from the front's tokens of the winning side, or from the
    stored back of a card met before), the sticker, the Envelope, the lightning, a note. Unless kept
    open, the card then goes on the Time Counter in the same submit (rulebook steps E and F)."""

    sticker = forms.IntegerField(
        required=False, min_value=1, max_value=177, label=gettext_lazy("Chronicle sticker number")
    )
    sticker_row = forms.ChoiceField(required=False, choices=ROW_CHOICES, label=gettext_lazy("Sticker row"))
    sticker_positive = forms.ChoiceField(
        required=False,
        choices=[("1", gettext_lazy("Positive")), ("0", gettext_lazy("Negative"))],
        label=gettext_lazy("Sticker kind"),
        widget=forms.RadioSelect,
    )
    envelope = forms.IntegerField(required=False, min_value=0, max_value=74, label=gettext_lazy("Envelope"))
    lightning = forms.BooleanField(
        required=False, label=gettext_lazy("The lightning is on the central space of the back")
    )
    note = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Anything else it says (a note)"),
        help_text=gettext_lazy("With a note the card stays open: apply it by hand, then place the card."),
    )
    keep_open = forms.BooleanField(
        required=False,
        label=gettext_lazy("Keep the card open (an Event or Trigger card, or an effect to apply by hand)"),
    )
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, MOVE_ROWS + 1):
            self.fields[f"move_{i}_row"] = forms.ChoiceField(
                required=False, choices=ROW_CHOICES, label=_("Move {number}: Resource").format(number=i)
            )
            self.fields[f"move_{i}_amount"] = forms.IntegerField(
                required=False, min_value=-17, max_value=17, label=_("Move {number}: spaces").format(number=i)
            )

    def moves(self) -> list[dict]:
        return [
            {"number": i, "row": self[f"move_{i}_row"], "amount": self[f"move_{i}_amount"]}
            for i in range(1, MOVE_ROWS + 1)
        ]

    @staticmethod
    def initial_from(outcome: dict | None, front: dict | None = None) -> dict:
        """The stored back of a card met before, offered again at the resolution; else what the front's
        tokens of the winning side say (each Resource 1 space its way, the sticker's kind)."""
        if outcome:
            sticker = outcome["sticker"]
            moves = outcome["resources"]
            initial = {
                "sticker": sticker["number"] if sticker else None,
                "sticker_row": sticker["row"] if sticker else "",
                "sticker_positive": "0" if sticker and not sticker["positive"] else "1",
                "envelope": outcome["envelope"],
                "lightning": outcome["lightning"],
                "note": outcome["note"],
            }
        elif front:
            moves = [[row, 1 if direction == "up" else -1] for row, direction in front["resources"]]
            initial = {"sticker_positive": "0" if front["sticker"] == "negative" else "1"}
        else:
            moves, initial = [], {"sticker_positive": "1"}
        for i in range(1, MOVE_ROWS + 1):  # the stepper counts from 0
            initial[f"move_{i}_amount"] = 0
        for i, (row, amount) in enumerate(moves[:MOVE_ROWS], start=1):
            initial[f"move_{i}_row"], initial[f"move_{i}_amount"] = row, amount
        return initial

    def clean(self) -> Any:
        data = self.cleaned_data
        moves = []
        for i in range(1, MOVE_ROWS + 1):
            row, amount = data.get(f"move_{i}_row"), data.get(f"move_{i}_amount")
            if amount and not row:
                self.add_error(f"move_{i}_row", str(MOVE_WITHOUT_ROW))
            elif row and amount:  # a Resource left at 0 spaces is left out
                moves.append([row, amount])
        data["resources"] = moves
        if data.get("sticker") and not data.get("sticker_row"):
            self.add_error("sticker_row", str(STICKER_ROW_NEEDED))
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
        place = "resolution" if data.get("keep_open") or outcome["note"] else "time_counter"
        return {"type": "read_outcome", "outcome": outcome, "place": place}


HOUSES_NEEDED = gettext_lazy("Tick the Houses this effect applies to, or every AYE or NAY voter.")
NEEDED_FOR_EFFECT = gettext_lazy("Needed for this effect.")
VOTER_SIDES = {"aye": gettext_lazy("Every AYE voter"), "nay": gettext_lazy("Every NAY voter")}


def voters_of(view: KingsDilemmaView) -> dict[str, list[int]]:
    """The Houses that voted each side in the vote under way, else in the last one (a printed
    effect "each House that voted NAY ..."); a side nobody voted is left out."""
    vote = view.get("vote") or view.get("last_vote")
    choices = vote["choice"] if vote else []
    found = {side: [i for i, c in enumerate(choices) if c == side] for side in VOTER_SIDES}
    return {side: seats for side, seats in found.items() if seats}


class CardEffectForm(forms.Form):
    """A printed effect the app cannot know, applied by the host (docs/rules-decisions.md). A give or
    take names one or more Houses (ticked, or every AYE or NAY voter of the vote): one effect, one
    logged action, one log line naming them."""

    KINDS = [
        ("move_resource", gettext_lazy("Move a Resource (with Momentum)")),
        ("adjust", gettext_lazy("Give or take Coins, Power, Prestige or Crave")),
        ("mystery_sticker", gettext_lazy("Attach a Mystery sticker")),
        ("to_event_area", gettext_lazy("Send the card to the Event area (Event and Trigger cards)")),
        (
            "to_dilemma_deck",
            gettext_lazy("Put a card from the Trash, the Event area or the Story save slot into the deck"),
        ),
    ]
    kind = forms.ChoiceField(choices=KINDS, label=gettext_lazy("Kind"))
    label = forms.CharField(
        max_length=80,
        label=gettext_lazy("Label"),
        help_text=gettext_lazy("What the card says, in a few words"),
    )
    row = forms.ChoiceField(required=False, choices=ROW_CHOICES, label=gettext_lazy("Row"))
    target = forms.TypedMultipleChoiceField(
        required=False,
        coerce=int,
        choices=(),
        label=gettext_lazy("Houses"),
        widget=forms.CheckboxSelectMultiple,
    )
    voters = forms.MultipleChoiceField(
        required=False,
        choices=(),
        label=gettext_lazy("Or by their vote"),
        widget=forms.CheckboxSelectMultiple,
    )
    what = forms.ChoiceField(
        required=False,
        label=gettext_lazy("What"),
        choices=[
            ("", "—"),
            ("coins", gettext_lazy("Coins")),
            ("power", gettext_lazy("Power")),
            ("prestige", gettext_lazy("Prestige")),
            ("crave", gettext_lazy("Crave")),
        ],
    )
    amount = forms.IntegerField(
        required=False,
        min_value=-20,
        max_value=20,
        label=gettext_lazy("Amount"),
        help_text=gettext_lazy("Negative to take away or move down"),
    )
    letter = forms.ChoiceField(
        required=False,
        choices=[("", "—"), *[(c, c) for c in "ABCDEFGHIJKL"]],
        label=gettext_lazy("Mystery letter"),
    )
    number = forms.IntegerField(required=False, min_value=1, max_value=999, label=gettext_lazy("Card number"))
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    NEEDS = {
        "move_resource": ("row", "amount"),
        "adjust": ("target", "what", "amount"),
        "mystery_sticker": ("letter",),
        "to_event_area": (),
        "to_dilemma_deck": ("number",),
    }
    # What the form keeps after an Apply, for the next effect of the same card.
    KEPT = ("kind", "label", "row", "target", "voters", "what", "amount")

    def __init__(
        self,
        *args: Any,
        seats: Sequence[tuple[int, str]] = (),
        offered: Sequence[dict] | None = None,
        voters: dict[str, list[int]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.ticked: list[int] = []
        target, by_vote = self.fields["target"], self.fields["voters"]
        assert isinstance(target, forms.ChoiceField) and isinstance(by_vote, forms.ChoiceField)
        target.choices = list(seats)
        names = dict(seats)
        self.voters_by_side = voters or {}
        by_vote.choices = [
            (side, f"{words} ({', '.join(names.get(i, '?') for i in self.voters_by_side[side])})")
            for side, words in VOTER_SIDES.items()
            if side in self.voters_by_side
        ]
        if offered is not None:
            self._offer(offered)

    def _offer(self, offered: Sequence[dict]) -> None:
        """Only the effects the table may apply now: no Mystery sticker once the campaign's six are
        attached, otherwise only the letters still behind their doors."""
        by_type = {choice["type"]: choice for choice in offered}
        kind, letter = self.fields["kind"], self.fields["letter"]
        assert isinstance(kind, forms.ChoiceField) and isinstance(letter, forms.ChoiceField)
        kind.choices = [(k, words) for k, words in self.KINDS if k in by_type]
        mystery = by_type.get("mystery_sticker")
        letters = mystery["params"]["letter"]["options"] if mystery else []
        letter.choices = [("", "—"), *[(c, c) for c in letters]]

    def clean(self) -> Any:
        data = self.cleaned_data
        if data.get("kind") == "adjust":
            # The Houses ticked and those of the sides ticked, once each, in seat order.
            self.ticked = list(data.get("target") or ())
            ticked = set(self.ticked)
            for side in data.get("voters") or ():
                ticked.update(self.voters_by_side.get(side, ()))
            data["target"] = sorted(ticked)
            if not ticked and "target" not in self.errors:
                self.add_error("target", str(HOUSES_NEEDED))
        for name in self.NEEDS.get(data.get("kind") or "", ()):
            if data.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, str(NEEDED_FOR_EFFECT))
        return data

    def action(self) -> dict:
        data = self.cleaned_data
        return {
            "type": data["kind"],
            "label": data["label"],
            **{name: data[name] for name in self.NEEDS[data["kind"]]},
        }

    def rows(self) -> list[tuple[Any, str]]:
        """Each visible field with the kinds of effect it serves ("" for every kind), for the page to
        show only those of the kind chosen."""
        serves: dict[str, list[str]] = {}
        for kind, names in self.NEEDS.items():
            for name in names:
                serves.setdefault(name, []).append(kind)
        serves["voters"] = serves["target"]
        return [(field, " ".join(serves.get(field.name, ()))) for field in self.visible_fields()]

    def kept(self) -> dict:
        """What an applied effect leaves in the form for the next one of the same card: its kind,
        label, Houses (as ticked), what and amount."""
        data = self.cleaned_data
        kept = {name: data.get(name) for name in self.KEPT}
        kept["target"] = self.ticked
        return {name: value for name, value in kept.items() if value not in (None, "", [])}


# ---- The host's screen: which choices get these forms, and the forms' context ---------------

TYPED_TABLE_ACTIONS = {
    "draw_dilemma",
    "read_outcome",
    "move_resource",
    "adjust",
    "mystery_sticker",
    "to_event_area",
    "to_dilemma_deck",
}


def _seats(facts: SessionFacts) -> list[tuple[int, str]]:
    return [(index, info["name"]) for index, info in sorted(facts.seats.items())]


# A new effect form starts as the commonest printed effect: Coins given or taken.
EFFECT_START = {"kind": "adjust", "what": "coins"}


def _effect_form(facts: SessionFacts, table: dict, bound: dict, initial: dict) -> dict[str, Any]:
    """The form for a printed effect applied by hand: refused, it shows again as typed; applied
    (``bound["applied"]``), it stays open with what it held, for the next effect of the same card;
    at the resolution (the card kept open for such effects) it starts open."""
    offered = table["legal_actions"]
    kinds = {a["type"] for a in offered} & (TYPED_TABLE_ACTIONS - {"draw_dilemma", "read_outcome"})
    if not kinds:
        return {"kings_dilemma_effect_form": None}
    applied = bound.get("applied")
    kept = applied.kept() if isinstance(applied, CardEffectForm) else {}
    if kept.get("kind") not in kinds:
        kept = {}
    start = EFFECT_START if EFFECT_START["kind"] in kinds else {}
    form = bound.get("effect") or CardEffectForm(
        seats=_seats(facts),
        offered=offered,
        voters=voters_of(table["view"]),
        initial={**initial, **(kept or start)},
    )
    return {
        "kings_dilemma_effect_form": form,
        "kings_dilemma_effect_open": form.is_bound or bool(kept) or table["view"]["phase"] == "resolution",
    }


def table_forms(*, facts: SessionFacts, table: dict, bound: dict) -> dict[str, Any]:
    """The host's forms for what the physical cards say; ``bound`` keeps a refused form as typed
    (by its ``compose`` kind; a card picked from those met before is not typed, so not kept)."""
    types = {a["type"] for a in table["legal_actions"]}
    view = table["view"]
    initial = {"version": facts.version, "key": secrets.token_urlsafe(12)}
    known = view["known_fronts"]
    card, side = view["card"], view["winning_side"]
    won = card["front"][side] if card and side else None
    draw = (bound.get("draw") or draw_form(table, initial=initial)) if "draw_dilemma" in types else None
    context = {
        "kings_dilemma_draw_form": draw,
        # The numbers the draw refuses and why, for the page to say so as the number is typed.
        "kings_dilemma_undrawable": json.dumps({str(n): str(why) for n, why in draw.undrawable.items()})
        if draw and draw.undrawable
        else "",
        # The fronts of the cards met before, for the page to fill the form in when one is picked.
        "kings_dilemma_known_fronts": json.dumps({c["number"]: front_fill(c) for c in known})
        if known
        else "",
        "kings_dilemma_outcome_form": (
            bound.get("outcome")
            or OutcomeForm(initial={**initial, **OutcomeForm.initial_from(view["known_outcome"], won)})
        )
        if "read_outcome" in types
        else None,
        **_effect_form(facts, table, bound, initial),
        "kings_dilemma_compose_url": reverse("games:session_table_compose", args=[facts.id]),
    }
    if table["over"] and facts.campaign_id and facts.night_recorded is not None:
        if not facts.night_recorded:
            context["kings_dilemma_save_url"] = reverse("kd-night-record", args=[facts.campaign_id, facts.id])
        else:
            context["kings_dilemma_campaign_url"] = reverse("campaign-detail", args=[facts.campaign_id])
    return context


def draw_form(table: dict, data: Any = None, initial: dict | None = None) -> DilemmaCardForm:
    """The draw form with what the engine says of the numbers: the cards met before, the numbers it
    refuses and why, and those a printed effect may put back into the deck."""
    view = table["view"]
    put_back: list[int] = next(
        (a["params"]["number"]["options"] for a in table["legal_actions"] if a["type"] == "to_dilemma_deck"),
        [],
    )
    return DilemmaCardForm(
        data, initial=initial, known=view["known_fronts"], undrawable=view["undrawable"], put_back=put_back
    )


def compose_form(*, kind: str, data: Any, facts: SessionFacts, table: dict) -> forms.Form | None:
    if kind in ("draw", "draw_known"):  # "draw_known": the earlier page's separate form for a card met before
        return draw_form(table, data)
    if kind == "outcome":
        return OutcomeForm(data)
    if kind == "effect":
        return CardEffectForm(
            data, seats=_seats(facts), offered=table["legal_actions"], voters=voters_of(table["view"])
        )
    return None
