from typing import Any

from django import forms

from config.json_limits import json_loads_strict, json_lone_surrogate
from games.selectors import game_choices

MAX_SEATS_ON_FORM = 5
MIN_SEATS_ON_FORM = 2
SEATS_REQUIRED = "Name at least 2 seats."
ACTION_NOT_JSON = "The action could not be read."


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


class SessionCreateForm(forms.Form):
    game = forms.ChoiceField(choices=())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "game").choices = [
            (g["slug"], f"{g['name']} ({g['min_seats']}–{g['max_seats']} players)") for g in game_choices()
        ]
        for i in range(1, MAX_SEATS_ON_FORM + 1):
            self.fields[f"seat_{i}"] = forms.CharField(
                label=f"Seat {i}", max_length=80, required=False, help_text="Clockwise from the host."
            )
            self.fields[f"bot_{i}"] = forms.BooleanField(label="bot", required=False)

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{i}"], self[f"bot_{i}"]) for i in range(1, MAX_SEATS_ON_FORM + 1)]

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        names: list[str] = []
        bots: list[int] = []
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
