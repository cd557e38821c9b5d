from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.json_limits import json_loads_strict, json_lone_surrogate
from games.selectors import game_choices
from games.translation import say_to_reader

MAX_SEATS_ON_FORM = 5
MIN_SEATS_ON_FORM = 2
SEATS_REQUIRED = gettext_lazy("Name at least 2 seats.")
BOT_NAME = "Bot {number}"  # a bot seat left unnamed (never dropped): "Bot 1", "Bot 2"...
ACTION_NOT_JSON = gettext_lazy("The action could not be read.")


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


class SessionCreateForm(forms.Form):
    game = forms.ChoiceField(choices=(), label=gettext_lazy("Game"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "game").choices = [
            (
                g["slug"],
                _("{game} ({low}–{high} players)").format(
                    game=say_to_reader(g["name"]), low=g["min_seats"], high=g["max_seats"]
                ),
            )
            for g in game_choices()
        ]
        for i in range(1, MAX_SEATS_ON_FORM + 1):
            self.fields[f"seat_{i}"] = forms.CharField(
                label=_("Seat {index}").format(index=i),
                max_length=80,
                required=False,
                help_text=_("Clockwise from the host."),
            )
            self.fields[f"bot_{i}"] = forms.BooleanField(label=_("bot"), required=False)

    @staticmethod
    def _bot_name(number: int, taken: set[str]) -> str:
        """A ticked bot seat without a name plays as "Bot N", N its place among the bots (the next
        free one when a seat is already called so)."""
        while BOT_NAME.format(number=number) in taken:
            number += 1
        taken.add(BOT_NAME.format(number=number))
        return BOT_NAME.format(number=number)

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{i}"], self[f"bot_{i}"]) for i in range(1, MAX_SEATS_ON_FORM + 1)]

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        names: list[str] = []
        bots: list[int] = []
        taken = {(data.get(f"seat_{i}") or "").strip() for i in range(1, MAX_SEATS_ON_FORM + 1)}
        for i in range(1, MAX_SEATS_ON_FORM + 1):
            name = (data.get(f"seat_{i}") or "").strip()
            if not name and data.get(f"bot_{i}"):
                name = self._bot_name(len(bots) + 1, taken)
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

    # The API's limit (api/sessions/serializers.py MAX_ACTION_JSON): the page is no back door around it.
    action = forms.CharField(max_length=10_000)
    version = forms.IntegerField(min_value=0)
    key = forms.CharField(max_length=100, required=False)

    def clean_action(self) -> dict[str, Any]:
        try:
            action = json_loads_strict(self.cleaned_data["action"])
        except (ValueError, RecursionError):
            raise forms.ValidationError(ACTION_NOT_JSON) from None
        if not isinstance(action, dict) or json_lone_surrogate(action):
            raise forms.ValidationError(ACTION_NOT_JSON)
        return action
