import json
import re

from django import forms

from games.selectors import game_choices

MAX_SEATS_ON_FORM = 5
MIN_SEATS_ON_FORM = 2
SEATS_REQUIRED = "Name at least 2 seats."
ACTION_NOT_JSON = "The action could not be read."


class SessionCreateForm(forms.Form):
    game = forms.ChoiceField(choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [
            (g["slug"], f"{g['name']} ({g['min_seats']}–{g['max_seats']} players)") for g in game_choices()
        ]
        for i in range(1, MAX_SEATS_ON_FORM + 1):
            self.fields[f"seat_{i}"] = forms.CharField(
                label=f"Seat {i}", max_length=60, required=False, help_text="Clockwise from the host."
            )
            self.fields[f"bot_{i}"] = forms.BooleanField(label="bot", required=False)

    def seat_rows(self):
        return [(self[f"seat_{i}"], self[f"bot_{i}"]) for i in range(1, MAX_SEATS_ON_FORM + 1)]

    def clean(self):
        data = super().clean()
        names, bots = [], []
        for i in range(1, MAX_SEATS_ON_FORM + 1):
            name = (data.get(f"seat_{i}") or "").strip()
            if name:
                if data.get(f"bot_{i}"):
                    bots.append(len(names))
                names.append(name)
        if len(names) < MIN_SEATS_ON_FORM:
            raise forms.ValidationError(SEATS_REQUIRED)
        data["seat_names"], data["bot_seats"] = names, bots
        return data


class ActionForm(forms.Form):
    """One button on a phone: the action as JSON, the version it was rendered at, and a key so a
    double tap applies once."""

    action = forms.CharField()
    version = forms.IntegerField(min_value=0)
    key = forms.CharField(max_length=100, required=False)

    def clean_action(self):
        try:
            action = json.loads(self.cleaned_data["action"])
        except ValueError:
            raise forms.ValidationError(ACTION_NOT_JSON) from None
        if not isinstance(action, dict):
            raise forms.ValidationError(ACTION_NOT_JSON)
        return action


# ---- The King's Dilemma: what the table types from a physical card --------------------------

RESOURCE_ROWS = ["influence", "wealth", "morale", "welfare", "knowledge"]
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


class DilemmaCardForm(forms.Form):
    """The Dilemma card drawn: its number and, the first time it is met, its AYE and NAY outcomes
    as printed (resource moves, Chronicle sticker, Envelope). The engine validates the rest."""

    number = forms.IntegerField(min_value=1, label="Card number")
    title = forms.CharField(max_length=120, required=False)
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, known: set[int] = frozenset(), **kwargs):
        super().__init__(*args, **kwargs)
        self.known = set(known)
        for side in ("aye", "nay"):
            label = side.upper()
            self.fields[f"{side}_resources"] = forms.CharField(
                required=False, label=f"{label}: resources", help_text=RESOURCE_MOVES_HELP
            )
            self.fields[f"{side}_sticker"] = forms.IntegerField(
                required=False, min_value=1, max_value=177, label=f"{label}: sticker number"
            )
            self.fields[f"{side}_sticker_row"] = forms.ChoiceField(
                required=False,
                choices=[("", "—"), *[(r, r.capitalize()) for r in RESOURCE_ROWS]],
                label=f"{label}: sticker row",
            )
            self.fields[f"{side}_sticker_positive"] = forms.ChoiceField(
                required=False, choices=[("1", "Positive"), ("0", "Negative")], label=f"{label}: sticker kind"
            )
            self.fields[f"{side}_envelope"] = forms.IntegerField(
                required=False, min_value=0, max_value=74, label=f"{label}: Envelope"
            )

    def clean(self):
        data = super().clean()
        for side in ("aye", "nay"):
            try:
                data[f"{side}_resources"] = parse_resource_moves(data.get(f"{side}_resources", ""))
            except forms.ValidationError as error:
                self.add_error(f"{side}_resources", error)
            if data.get(f"{side}_sticker") and not data.get(f"{side}_sticker_row"):
                self.add_error(f"{side}_sticker_row", "Which Resource row does the sticker go to?")
        return data

    def action(self) -> dict:
        data = self.cleaned_data
        typed = any(
            data.get(f"{side}_{what}")
            for side in ("aye", "nay")
            for what in ("resources", "sticker", "envelope")
        )
        if data["number"] in self.known and not typed:
            return {"type": "draw_dilemma", "card": {"number": data["number"]}}
        card = {"number": data["number"], "title": data.get("title", "")}
        for side in ("aye", "nay"):
            sticker = None
            if data.get(f"{side}_sticker"):
                sticker = {
                    "number": data[f"{side}_sticker"],
                    "row": data[f"{side}_sticker_row"],
                    "positive": data.get(f"{side}_sticker_positive") != "0",
                }
            card[side] = {
                "resources": data[f"{side}_resources"],
                "sticker": sticker,
                "envelope": data.get(f"{side}_envelope"),
            }
        return {"type": "draw_dilemma", "card": card}


class CardEffectForm(forms.Form):
    """A printed effect the app cannot know, applied by the host (DESIGN.md section 8)."""

    KINDS = [
        ("move_resource", "Move a Resource (with Momentum)"),
        ("adjust", "Give or take Coins, Power, Prestige or Crave"),
        ("mystery_sticker", "Attach a Mystery sticker"),
        ("to_event_area", "Send the card to the Event area"),
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
    amount = forms.IntegerField(required=False, help_text="Negative to take away or move down")
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

    def __init__(self, *args, seats: list[tuple[int, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [("", "—"), *seats]

    def clean(self):
        data = super().clean()
        for name in self.NEEDS.get(data.get("kind"), ()):
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
