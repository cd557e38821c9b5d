from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign import selectors
from campaign.models import (
    DISPLAY_NAME_MAX,
    INVITATION_DAYS_DEFAULT,
    INVITATION_DAYS_MAX,
    DilemmaCard,
    GameEnd,
    House,
    Invitation,
    Membership,
    ResourceRow,
    SecretAgenda,
)
from campaign.services.archive.upload import archive_upload_read
from campaign.services.common import text_checked
from campaign.services.members import INVITATION_DAYS
from games.engines.kings_dilemma.data import GRAND_FINALE_ENVELOPE, MYSTERY_LETTERS

SPECIAL_HELP = _("The first card says 'This is a Special Envelope!'")
WHICH_STORYLINE = _("Which storyline does the Story card belong to?")
WHICH_SECRET_AGENDA = _("Which Secret Agenda did this House play?")
THREE_NUMBERS_FORMAT = _("Write card numbers separated by commas, e.g. 12, 31, 7.")
# A result row's box as a screen reader names it: the table's column headings are the visible labels.
ROW_FIELD = _("Row %(row)s: %(field)s")
SEAT = _("Seat %(number)s")


def _house_field(form: forms.Form, name: str) -> forms.ModelChoiceField:
    """A House picker, whose choices are the campaign's Houses."""
    field = form.fields[name]
    assert isinstance(field, forms.ModelChoiceField)
    return field


class HouseChoiceField(forms.ModelChoiceField):
    """A House picker that names each House in the reader's language."""

    def label_from_instance(self, obj) -> str:
        return gettext("House %(house)s") % {"house": obj.name}


class TextRuleForm(forms.Form):
    """Every text field is held to the archive's rule (no control or bidi characters): a text a
    form takes is one the campaign's export carries and its import takes again."""

    def full_clean(self):
        for field in self.fields.values():  # those a form adds in its __init__ included
            if type(field) is forms.CharField and text_checked not in field.validators:
                field.validators.append(text_checked)
        super().full_clean()


class CampaignBoundForm(TextRuleForm):
    """A form about one campaign: its House choices come from that campaign."""

    house_fields: tuple[str, ...] = ()
    # The campaign page shows several of these forms at once: each gets its own element ids
    # (id_sticker_number, id_envelope_number, ...), so a label never focuses another form's field.
    id_prefix = ""

    def __init__(self, *args, campaign, **kwargs):
        if self.id_prefix:
            kwargs.setdefault("auto_id", f"id_{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)
        for name in self.house_fields:
            _house_field(self, name).queryset = campaign.houses.all()


class CampaignForm(TextRuleForm):
    name = forms.CharField(max_length=120, label=_("Name"))


class HouseForm(CampaignBoundForm):
    id_prefix = "house"
    name = forms.CharField(
        max_length=80, label=_("Name"), help_text=_("As written on the House screen, e.g. Smeethe")
    )
    number = forms.IntegerField(
        min_value=1, max_value=12, label=_("Number"), help_text=_("The House number (1-12) on the screen")
    )
    player_name = forms.CharField(max_length=80, required=False, label=_("Player name"))


class StickerForm(CampaignBoundForm):
    id_prefix = "sticker"
    house_fields = ("signer",)
    number = forms.IntegerField(min_value=1, max_value=177, label=_("Number"))
    row = forms.ChoiceField(choices=ResourceRow.choices, label=_("Row"))
    positive = forms.TypedChoiceField(
        choices=[("1", _("Positive (white title bar)")), ("0", _("Negative (black title bar)"))],
        coerce=lambda v: v == "1",
        label=_("Side"),
    )
    signer = HouseChoiceField(
        queryset=House.objects.none(), required=False, empty_label=_("(nobody)"), label=_("Signer")
    )
    title = forms.CharField(max_length=120, required=False, label=_("Title"))


CARD_NUMBERS_FORMAT = _("Write card numbers separated by commas, or a range, e.g. 12, 31, 7 or 1-20.")
CARD_RANGE_TOO_LONG = _("At most %(most)s card numbers at once.")
MAX_TYPED_CARDS = 120


def card_numbers(raw: str) -> list[int]:
    """'12, 31, 7' or '1-20, 25': the card numbers typed, in order. Raises ValidationError."""
    numbers: list[int] = []
    for part in raw.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not (low.isascii() and low.isdigit()) or (dash and not (high.isascii() and high.isdigit())):
            raise forms.ValidationError(CARD_NUMBERS_FORMAT)
        first, last = int(low), int(high) if dash else int(low)
        if last < first or len(numbers) + last - first + 1 > MAX_TYPED_CARDS:
            raise forms.ValidationError(
                CARD_NUMBERS_FORMAT if last < first else CARD_RANGE_TOO_LONG % {"most": MAX_TYPED_CARDS}
            )
        numbers.extend(range(first, last + 1))
    return numbers


class EnvelopeForm(CampaignBoundForm):
    id_prefix = "envelope"
    house_fields = ("opened_by",)
    number = forms.IntegerField(min_value=0, max_value=74, label=_("Number"))
    special = forms.BooleanField(required=False, label=_("Special"), help_text=SPECIAL_HELP)
    opened_by = HouseChoiceField(
        queryset=House.objects.none(), required=False, empty_label=_("(nobody)"), label=_("Opened by")
    )
    dilemma_numbers = forms.CharField(
        required=False,
        label=_("Dilemma card numbers"),
        help_text=_("The 3 Dilemma card numbers of a standard Envelope, separated by commas"),
    )
    story_number = forms.IntegerField(required=False, min_value=1, label=_("Story card number"))
    storyline = forms.CharField(required=False, max_length=40, label=_("Storyline"))

    def clean_dilemma_numbers(self):
        return card_numbers(self.cleaned_data["dilemma_numbers"])

    def clean(self):
        data = self.cleaned_data
        if data.get("story_number") and not data.get("storyline"):
            self.add_error("storyline", WHICH_STORYLINE)
        return data


class MysteryForm(CampaignBoundForm):
    id_prefix = "mystery"
    letter = forms.ChoiceField(choices=[(c, c) for c in MYSTERY_LETTERS], label=_("Letter"))
    storyline = forms.CharField(required=False, max_length=40, label=_("Storyline"))


class AchievementMarkForm(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=10, initial=1, label=_("Spaces"))


class CampaignImportForm(TextRuleForm):
    archive = forms.FileField(label=_("Archive"), help_text=_("A .json archive exported from Chronicle"))
    name = forms.CharField(
        max_length=120, required=False, label=_("Name"), help_text=_("Leave empty to keep the archive's name")
    )

    def clean_archive(self):
        return archive_upload_read(upload=self.cleaned_data["archive"])


class GameBeginForm(CampaignBoundForm):
    id_prefix = "begin"
    king_name = forms.CharField(max_length=80, label=_("King's name"), help_text=_("e.g. Harald V"))
    played_on = forms.DateField(
        required=False, label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"})
    )


POINTS = forms.NumberInput(attrs={"style": "width:5rem", "inputmode": "numeric"})


class ResultRowForm(forms.Form):
    house = HouseChoiceField(
        queryset=House.objects.none(), required=False, empty_label=_("(did not play)"), label=_("House")
    )
    secret_agenda = forms.ChoiceField(
        choices=[("", "—"), *SecretAgenda.choices], required=False, label=_("Secret Agenda")
    )
    # Points are two digits at most: narrow boxes, so a whole row fits the table.
    agenda_points = forms.IntegerField(initial=0, label=_("Agenda points"), widget=POINTS)
    open_agenda_points = forms.IntegerField(initial=0, label=_("Open Agenda"), widget=POINTS)
    coins_points = forms.IntegerField(initial=0, label=_("Coins"), widget=POINTS)
    power_points = forms.IntegerField(initial=0, label=_("Power"), widget=POINTS)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        _house_field(self, "house").queryset = campaign.houses.all()
        # The table's column headings are the visible labels; each field still names itself.
        row = (self.prefix or "row0").removeprefix("row")
        number = int(row) + 1 if row.isdigit() else row
        for field in self.fields.values():
            field.widget.attrs["aria-label"] = ROW_FIELD % {"row": number, "field": field.label}

    def clean(self):
        data = self.cleaned_data
        if data.get("house") and not data.get("secret_agenda"):
            self.add_error("secret_agenda", WHICH_SECRET_AGENDA)
        return data


class GameResultForm(TextRuleForm):
    """The Realm Chronicles table of one game: how it ended and up to 5 rows."""

    end = forms.ChoiceField(choices=GameEnd.choices, label=_("End"))
    ROWS = 5

    def __init__(self, data=None, *, campaign):
        super().__init__(data)
        self.rows = [ResultRowForm(data, campaign=campaign, prefix=f"row{i}") for i in range(self.ROWS)]

    def is_valid(self):
        return all([super().is_valid(), *[row.is_valid() for row in self.rows]])

    def result_rows(self) -> list[dict]:
        return [row.cleaned_data for row in self.rows if row.cleaned_data.get("house")]


KEEP_UNREADABLE = _("The Open Agenda choices could not be read: reload the page and choose again.")
ONE_SEAT_EACH = _("A House can sit at only one seat.")


class GameNightForm(CampaignBoundForm):
    """Start a King's Dilemma game night: the King's name and the Houses in table order."""

    id_prefix = "night"

    king_name = forms.CharField(max_length=80, label=_("King's name"), help_text=_("e.g. Harald V"))
    SEATS = 5

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        last = [] if self.is_bound else selectors.last_night_houses(campaign=campaign)
        for i in range(self.SEATS):
            self.fields[f"seat{i}"] = HouseChoiceField(
                queryset=campaign.houses.all(),
                required=i < 3,
                label=_("Seat 1 (then clockwise)") if i == 0 else SEAT % {"number": i + 1},
                empty_label=_("(empty)"),
                initial=last[i] if i < len(last) else None,  # last night's seats, offered again
            )

    def houses(self) -> list:
        return [self.cleaned_data[f"seat{i}"] for i in range(self.SEATS) if self.cleaned_data.get(f"seat{i}")]

    def clean(self):
        data = self.cleaned_data
        chosen = [house for i in range(self.SEATS) if (house := data.get(f"seat{i}"))]
        if len({h.pk for h in chosen}) != len(chosen):
            raise forms.ValidationError(ONE_SEAT_EACH)
        return data

    def keep(self, data) -> dict:
        """Open Agenda choices posted as keep-<house>-<polarity> checkboxes (rows to keep)."""
        keep: dict = {}
        for key in data:
            if key.startswith("keep-"):
                _, house, polarity = [*key.split("-", 2), "", ""][:3]
                if not house.isascii() or not house.isdigit() or not polarity:  # not the page's
                    raise forms.ValidationError(KEEP_UNREADABLE)
                keep.setdefault(int(house), {})[polarity] = data.getlist(key)
        return keep


class EnvelopeContentsForm(TextRuleForm):
    """For each Envelope opened during a game night: its Story card and its 3 Dilemma cards.
    Envelope 70, the Grand Finale, asks for nothing: its events close the campaign."""

    def __init__(self, data=None, *, envelopes: list[int]):
        super().__init__(data)
        self.finale = GRAND_FINALE_ENVELOPE in envelopes
        self.envelopes = [n for n in envelopes if n != GRAND_FINALE_ENVELOPE]
        for n in self.envelopes:
            envelope = {"number": f"{n:02d}"}
            self.fields[f"e{n}-special"] = forms.BooleanField(
                required=False, label=gettext("Envelope %(number)s is a Special Envelope") % envelope
            )
            self.fields[f"e{n}-story"] = forms.IntegerField(
                required=False,
                min_value=1,
                label=gettext("Envelope %(number)s: Story card number") % envelope,
            )
            self.fields[f"e{n}-storyline"] = forms.CharField(
                required=False, max_length=40, label=_("Storyline")
            )
            self.fields[f"e{n}-dilemmas"] = forms.CharField(
                required=False, label=_("Dilemma card numbers"), help_text=_("3 numbers separated by commas")
            )

    def clean(self):
        data = self.cleaned_data
        for n in self.envelopes:
            raw = data.get(f"e{n}-dilemmas") or ""
            try:
                data[f"e{n}-dilemmas"] = [int(x) for x in raw.replace(" ", "").split(",") if x]
            except ValueError:
                self.add_error(f"e{n}-dilemmas", THREE_NUMBERS_FORMAT)
            if data.get(f"e{n}-story") and not data.get(f"e{n}-storyline"):
                self.add_error(f"e{n}-storyline", WHICH_STORYLINE)
        return data

    def contents(self) -> dict:
        out = {}
        for n in self.envelopes:
            story = self.cleaned_data.get(f"e{n}-story")
            out[n] = {
                "special": self.cleaned_data.get(f"e{n}-special", False),
                "dilemma_numbers": self.cleaned_data.get(f"e{n}-dilemmas") or [],
                "story_card": {"number": story, "storyline": self.cleaned_data[f"e{n}-storyline"]}
                if story
                else None,
            }
        return out


class AchievementForm(CampaignBoundForm):
    """An achievement as printed on a House screen, with its unlocked ability as structured effects."""

    id_prefix = "achievement"

    house_fields = ("house",)
    house = HouseChoiceField(
        queryset=House.objects.none(), label=_("House"), empty_label=_("(choose a House)")
    )
    kind = forms.ChoiceField(
        choices=[("gameplay", _("Gameplay")), ("narrative", _("Narrative"))], label=_("Kind")
    )
    name = forms.CharField(max_length=120, label=_("Name"))
    condition = forms.CharField(max_length=300, required=False, label=_("Condition"))
    spaces = forms.IntegerField(min_value=1, max_value=10, initial=3, label=_("Spaces"))
    start_power = forms.IntegerField(required=False, label=_("Power at the start of each game"))
    start_coins = forms.IntegerField(required=False, label=_("Coins at the start of each game"))
    prestige = forms.IntegerField(required=False, label=_("Prestige once unlocked"))
    crave = forms.IntegerField(required=False, label=_("Crave once unlocked"))
    power = forms.IntegerField(required=False, label=_("Power once unlocked"))
    coins = forms.IntegerField(required=False, label=_("Coins once unlocked"))
    ability_text = forms.CharField(max_length=500, required=False, label=_("Ability (as printed)"))

    EFFECTS = ("start_power", "start_coins", "prestige", "crave", "power", "coins")

    def clean(self):
        """The cleaned data are the service's arguments: the effect fields become ``effects``."""
        data = self.cleaned_data
        data["effects"] = {k: data.pop(k) for k in self.EFFECTS if data.get(k)}
        for k in self.EFFECTS:
            data.pop(k, None)
        return data


class StoryCardForm(CampaignBoundForm):
    """A Story card placed on its storyline (an Ending card with Cohesion/Dissent and the Majority
    Signer Bonus, or a card from a Special Envelope)."""

    id_prefix = "story"

    house_fields = ("signer",)
    number = forms.IntegerField(min_value=1, label=_("Number"))
    storyline = forms.CharField(max_length=40, label=_("Storyline"))
    signer = HouseChoiceField(
        queryset=House.objects.none(), required=False, empty_label=_("(nobody)"), label=_("Signer")
    )
    title = forms.CharField(max_length=120, required=False, label=_("Title"))
    is_ending = forms.BooleanField(required=False, label=_("Ending card"))
    cohesion = forms.IntegerField(min_value=0, required=False, label=_("Cohesion"))
    dissent = forms.IntegerField(min_value=0, required=False, label=_("Dissent"))
    bonus_prestige = forms.IntegerField(
        min_value=0, required=False, label=_("Majority Signer Bonus: Prestige")
    )
    bonus_crave = forms.IntegerField(min_value=0, required=False, label=_("Majority Signer Bonus: Crave"))
    start_power = forms.IntegerField(required=False, label=_("Signer's Power at the start of each game"))
    start_coins = forms.IntegerField(required=False, label=_("Signer's Coins at the start of each game"))
    ability_text = forms.CharField(max_length=500, required=False, label=_("Ability (as printed)"))

    def clean(self):
        """The cleaned data are the service's arguments."""
        data = self.cleaned_data
        bonus = {"prestige": data.pop("bonus_prestige", None), "crave": data.pop("bonus_crave", None)}
        data["majority_signer_bonus"] = {k: v for k, v in bonus.items() if v}
        effects = {"start_power": data.pop("start_power", None), "start_coins": data.pop("start_coins", None)}
        data["effects"] = {k: v for k, v in effects.items() if v}
        data["cohesion"] = data.get("cohesion") or 0
        data["dissent"] = data.get("dissent") or 0
        return data


class FirstEnvelopeForm(CampaignBoundForm):
    """'Before your first game': Envelope 00, its Story card and the starting Dilemma deck."""

    id_prefix = "first"
    story_number = forms.IntegerField(
        min_value=1, label=_("Story card number"), help_text=_("The first card in the Envelope")
    )
    storyline = forms.CharField(
        max_length=40, label=_("Storyline"), help_text=_("The symbol in its top right corner, e.g. Crown")
    )
    title = forms.CharField(max_length=120, required=False, label=_("Story card title"))
    dilemma_numbers = forms.CharField(
        label=_("Dilemma card numbers"),
        help_text=_("The rest of the Envelope: your starting Dilemma deck, e.g. 1-20 or 1, 2, 3"),
    )

    def clean_dilemma_numbers(self):
        return card_numbers(self.cleaned_data["dilemma_numbers"])


class GameCorrectForm(GameResultForm):
    """A recorded night's Realm Chronicles table, prefilled with its current revision, and why."""

    reason = forms.CharField(
        max_length=200,
        required=False,
        label=_("Reason"),
        help_text=_("What was wrong, for the history (optional)"),
    )

    def __init__(self, data=None, *, campaign, game, scores):
        super().__init__(data, campaign=campaign)
        self.fields["end"].initial = game.end
        for row, score in zip(self.rows, scores, strict=False):
            row.initial = {
                "house": score.house_id,
                "secret_agenda": score.secret_agenda,
                "agenda_points": score.agenda_points,
                "open_agenda_points": score.open_agenda_points,
                "coins_points": score.coins_points,
                "power_points": score.power_points,
            }


class StickerCorrectForm(StickerForm):
    id_prefix = "fix"


class AgingMarksForm(forms.Form):
    """A sticker's aging marks, counted again (0 to its last square: the service checks the bound)."""

    marks = forms.IntegerField(
        min_value=0, label=_("Aging marks"), help_text=_("Marked squares on the sticker")
    )

    def __init__(self, *args, squares: int, **kwargs):
        kwargs.setdefault("auto_id", "id_fix_%s")
        super().__init__(*args, **kwargs)
        self.fields["marks"].widget.attrs["max"] = squares


class EnvelopeCorrectForm(CampaignBoundForm):
    id_prefix = "fix"
    house_fields = ("opened_by",)
    opened_by = HouseChoiceField(
        queryset=House.objects.none(), required=False, empty_label=_("(nobody)"), label=_("Opened by")
    )
    special = forms.BooleanField(required=False, label=_("Special"), help_text=SPECIAL_HELP)


class DilemmaCardMoveForm(CampaignBoundForm):
    id_prefix = "fix"
    place = forms.ChoiceField(choices=DilemmaCard.Place.choices, label=_("Where the card belongs"))


class InvitationForm(CampaignBoundForm):
    """The owner's invitation: a role, optionally a House without a player yet, how long it lasts."""

    id_prefix = "invite"
    house_fields = ("house",)
    role = forms.ChoiceField(choices=Invitation.Role.choices, initial=Invitation.Role.PLAYER, label=_("Role"))
    house = HouseChoiceField(
        queryset=House.objects.none(),
        required=False,
        empty_label=_("(no House)"),
        label=_("House"),
        help_text=_("The House this person will play: the link then serves once."),
    )
    days = forms.IntegerField(
        min_value=1,
        max_value=INVITATION_DAYS_MAX,
        initial=INVITATION_DAYS_DEFAULT,
        label=_("Days valid"),
        error_messages={
            "min_value": INVITATION_DAYS,
            "max_value": INVITATION_DAYS,
            "invalid": INVITATION_DAYS,
        },
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        _house_field(self, "house").queryset = campaign.houses.filter(user__isnull=True)
        # Said in the reader's language with the bound in it (a brace message has no pseudo-language).
        self.fields["days"].help_text = gettext("1 to %(most)s days.") % {"most": INVITATION_DAYS_MAX}


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices, label=_("Role"))


class MemberHouseForm(CampaignBoundForm):
    house_fields = ("house",)
    house = HouseChoiceField(
        queryset=House.objects.none(), required=False, empty_label=_("(no House)"), label=_("House")
    )


class MemberNameForm(TextRuleForm):
    display_name = forms.CharField(max_length=DISPLAY_NAME_MAX, required=False, label=_("Name"), strip=True)
