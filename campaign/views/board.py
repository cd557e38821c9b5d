"""The board's forms on the campaign page: Chronicle and Mystery stickers, Envelopes (Envelope 00
before the first game) and the Story cards on their storylines."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from campaign import forms
from campaign.services.envelopes import (
    STARTING_ENVELOPE,
    envelope_open,
    story_card_place,
)
from campaign.services.stickers import (
    mystery_sticker_attach,
    sticker_attach,
)
from campaign.views.form_pages import (
    campaign_form_view,
)
from config.http import HttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def sticker_attach_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.StickerForm,
        gettext_lazy("Attach a Chronicle sticker"),
        lambda campaign, data: sticker_attach(
            campaign=campaign, actor=request.user, game=campaign.games.last(), **data
        ),
        lambda sticker: (
            gettext("Sticker %(number)s attached to the %(row)s row.")
            % {"number": sticker.number, "row": sticker.get_row_display()}
        ),
        form_id="sticker-form",
        oob=("board",),
    )


@login_required
@require_http_methods(["GET", "POST"])
def envelope_open_view(request: HttpRequest, pk: int) -> HttpResponse:
    def call(campaign, data):
        story = (
            {"number": data["story_number"], "storyline": data["storyline"]}
            if data.get("story_number")
            else None
        )
        return envelope_open(
            campaign=campaign,
            number=data["number"],
            special=data["special"],
            opened_by=data["opened_by"],
            dilemma_numbers=data["dilemma_numbers"],
            story_card=story,
            game=campaign.games.last(),
            actor=request.user,
        )

    return campaign_form_view(
        request,
        pk,
        forms.EnvelopeForm,
        gettext_lazy("Open an Envelope"),
        call,
        lambda e: gettext("Envelope %(number)s opened.") % {"number": f"{e.number:02d}"},
        form_id="envelope-form",
        oob=("houses", "envelopes", "slots", "stories"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def mystery_attach_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.MysteryForm,
        gettext_lazy("Attach a Mystery sticker"),
        lambda campaign, data: mystery_sticker_attach(
            campaign=campaign, actor=request.user, game=campaign.games.last(), **data
        ),
        lambda sticker: gettext("Mystery sticker %(letter)s attached.") % {"letter": sticker.letter},
        form_id="mystery-form",
    )


@login_required
@require_http_methods(["GET", "POST"])
def story_card_place_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.StoryCardForm,
        gettext_lazy("Place a Story card"),
        lambda campaign, data: story_card_place(
            campaign=campaign, game=campaign.games.last(), actor=request.user, **data
        ),
        lambda card: (
            gettext("Story card %(number)s is on top of the %(storyline)s storyline.")
            % {"number": card.number, "storyline": card.storyline}
        ),
        form_id="story-form",
        oob=("houses", "stories"),
    )


def _first_envelope_opened(envelope) -> str:
    count = envelope.cards.count()
    return ngettext(
        "Envelope %(number)s opened: Story card %(story)s is on its storyline and %(count)s Dilemma card "
        "is your starting Dilemma deck.",
        "Envelope %(number)s opened: Story card %(story)s is on its storyline and %(count)s Dilemma cards "
        "are your starting Dilemma deck.",
        count,
    ) % {"number": f"{envelope.number:02d}", "story": envelope.story_cards.first().number, "count": count}


@login_required
@require_http_methods(["GET", "POST"])
def envelope_first_view(request: HttpRequest, pk: int) -> HttpResponse:
    """'Before your first game': open Envelope 00, place its Story card, record the starting deck."""

    def call(campaign, data):
        story = {"number": data["story_number"], "storyline": data["storyline"], "title": data["title"]}
        return envelope_open(
            campaign=campaign,
            number=STARTING_ENVELOPE,
            dilemma_numbers=data["dilemma_numbers"],
            story_card=story,
            actor=request.user,
        )

    return campaign_form_view(
        request,
        pk,
        forms.FirstEnvelopeForm,
        gettext_lazy("Open Envelope 00"),
        call,
        _first_envelope_opened,
        form_id="first-envelope-form",
        oob=("envelopes", "slots", "stories"),
        once=True,
    )
