"""The board's forms on the campaign page: Chronicle and Mystery stickers, Envelopes (Envelope 00
before the first game) and the Story cards on their storylines."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
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
        "Attach a Chronicle sticker",
        lambda campaign, data: sticker_attach(
            campaign=campaign, actor=request.user, game=campaign.games.last(), **data
        ),
        lambda sticker: f"Sticker {sticker.number} attached to the {sticker.get_row_display()} row.",
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
        "Open an Envelope",
        call,
        lambda e: f"{e} opened.",
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
        "Attach a Mystery sticker",
        lambda campaign, data: mystery_sticker_attach(
            campaign=campaign, actor=request.user, game=campaign.games.last(), **data
        ),
        lambda sticker: f"Mystery sticker {sticker.letter} attached.",
        form_id="mystery-form",
    )


@login_required
@require_http_methods(["GET", "POST"])
def story_card_place_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.StoryCardForm,
        "Place a Story card",
        lambda campaign, data: story_card_place(
            campaign=campaign, game=campaign.games.last(), actor=request.user, **data
        ),
        lambda card: f"Story card {card.number} is on top of the {card.storyline} storyline.",
        form_id="story-form",
        oob=("houses", "stories"),
    )


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
        "Open Envelope 00",
        call,
        lambda e: (
            f"{e} opened: Story card {e.story_cards.first().number} is on its storyline and "
            f"{e.cards.count()} Dilemma cards are your starting Dilemma deck."
        ),
        form_id="first-envelope-form",
        oob=("envelopes", "slots", "stories"),
        once=True,
    )
