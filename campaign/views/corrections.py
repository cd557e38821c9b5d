"""The owner's corrections, each on a page of its own: a recorded night, a Chronicle sticker
(or its aging marks), an Envelope, a Dilemma card in the wrong save slot."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext
from django.views.decorators.http import require_http_methods

from campaign import forms, selectors
from campaign.access import (
    Need,
)
from campaign.services.chronicles import (
    game_result_correct,
)
from campaign.services.envelopes import (
    dilemma_card_move,
    envelope_correct,
    envelope_remove,
)
from campaign.services.stickers import (
    sticker_correct,
    sticker_marks_correct,
    sticker_remove,
)
from campaign.views.form_pages import (
    Removal,
    correction_page,
    member_campaign,
)
from config.http import HttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def game_correct_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """'Correct this night': the Realm Chronicles table of a recorded night, prefilled with its
    current revision; the service writes a new revision and rebalances the ledger."""
    campaign = member_campaign(request, pk, Need.OWN)
    game = get_object_or_404(campaign.games, number=number, recorded=True)
    scores = list(game.scores.filter(revision=game.revision).select_related("house").order_by("position"))
    data = request.POST if request.method == "POST" else None
    form = forms.GameCorrectForm(data, campaign=campaign, game=game, scores=scores)
    return correction_page(
        request,
        campaign,
        title=gettext("Correct night %(number)s: King %(king)s")
        % {"number": game.number, "king": game.king_name},
        current=gettext("Recorded now (revision %(revision)s): %(end)s.")
        % {"revision": game.revision, "end": game.get_end_display()},
        form=form,
        save=(
            lambda data: game_result_correct(
                game=game, end=data["end"], rows=form.result_rows(), reason=data["reason"], actor=request.user
            ),
            gettext(
                "Game %(number)s corrected: the Realm Chronicles keep the result played and this "
                "correction; Prestige and Crave moved only where the ranking changed."
            )
            % {"number": game.number},
        ),
        back=reverse("campaign-chronicles", args=[campaign.pk]),
        back_label=gettext("Realm Chronicles"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def sticker_correct_view(request: HttpRequest, pk: int, sticker_number: int) -> HttpResponse:
    """A Chronicle sticker typed wrongly (number, row, side, signer, title), or attached by mistake."""
    campaign = member_campaign(request, pk, Need.OWN)
    sticker = get_object_or_404(campaign.stickers.select_related("signer"), number=sticker_number)
    initial = {
        "number": sticker.number,
        "row": sticker.row,
        "positive": "1" if sticker.positive else "0",
        "signer": sticker.signer_id,
        "title": sticker.title,
    }
    data = request.POST if request.method == "POST" else None
    form = forms.StickerCorrectForm(data, campaign=campaign, initial=initial)
    side = pgettext("sticker", "positive") if sticker.positive else pgettext("sticker", "negative")
    signer = (
        gettext("signed by House %(house)s") % {"house": sticker.signer.name}
        if sticker.signer
        else gettext("unsigned")
    )
    return correction_page(
        request,
        campaign,
        title=gettext("Correct Chronicle sticker %(number)s") % {"number": sticker.number},
        current=gettext("Recorded now: %(side)s, %(row)s row, %(signer)s.")
        % {"side": side, "row": sticker.get_row_display(), "signer": signer},
        form=form,
        save=(
            lambda data: sticker_correct(sticker=sticker, actor=request.user, **data),
            lambda corrected: gettext("Sticker %(number)s corrected.") % {"number": corrected.number},
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#board",
        back_label=campaign.name,
        removal=Removal(
            lambda: sticker_remove(sticker=sticker, actor=request.user),
            gettext("Sticker %(number)s removed from the board.") % {"number": sticker.number},
            gettext("Remove this sticker: it was attached by mistake"),
            gettext("Attached by mistake?"),
            gettext("It comes off the board; a sticker it covered is visible again. The history keeps both."),
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def sticker_aging_correct_view(request: HttpRequest, pk: int, sticker_number: int) -> HttpResponse:
    """A sticker's aging marks counted again (the owner's correction)."""
    campaign = member_campaign(request, pk, Need.OWN)
    sticker = get_object_or_404(campaign.stickers, number=sticker_number)
    data = request.POST if request.method == "POST" else None
    squares = selectors.campaign_setting(campaign, "aging_squares")
    form = forms.AgingMarksForm(data, squares=squares, initial={"marks": sticker.marks})
    return correction_page(
        request,
        campaign,
        title=gettext("Correct the aging marks of Chronicle sticker %(number)s") % {"number": sticker.number},
        current=ngettext(
            "Recorded now: %(marks)s of %(squares)s square marked.",
            "Recorded now: %(marks)s of %(squares)s squares marked.",
            squares,
        )
        % {"marks": sticker.marks, "squares": squares},
        form=form,
        save=(
            lambda data: sticker_marks_correct(sticker=sticker, marks=data["marks"], actor=request.user),
            lambda corrected: (
                gettext("Aging marks of sticker %(number)s corrected.") % {"number": corrected.number}
            ),
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#board",
        back_label=campaign.name,
    )


@login_required
@require_http_methods(["GET", "POST"])
def envelope_correct_view(request: HttpRequest, pk: int, envelope_number: int) -> HttpResponse:
    """An Envelope recorded wrongly (who opened it, Special or not), or opened by mistake."""
    campaign = member_campaign(request, pk, Need.OWN)
    envelope = get_object_or_404(campaign.envelopes.select_related("opened_by"), number=envelope_number)
    initial = {"opened_by": envelope.opened_by_id, "special": envelope.special}
    data = request.POST if request.method == "POST" else None
    form = forms.EnvelopeCorrectForm(data, campaign=campaign, initial=initial)
    cards = ", ".join(str(n) for n in envelope.cards.values_list("number", flat=True)) or gettext("none")
    by = (
        gettext("House %(house)s") % {"house": envelope.opened_by.name}
        if envelope.opened_by
        else gettext("nobody")
    )
    recorded = (
        gettext("Recorded now: Special, opened by %(by)s; its Dilemma cards: %(cards)s.")
        if envelope.special
        else gettext("Recorded now: standard, opened by %(by)s; its Dilemma cards: %(cards)s.")
    )
    number = {"number": f"{envelope.number:02d}"}
    return correction_page(
        request,
        campaign,
        title=gettext("Correct Envelope %(number)s") % number,
        current=recorded % {"by": by, "cards": cards},
        form=form,
        save=(
            lambda data: envelope_correct(envelope=envelope, actor=request.user, **data),
            gettext("Envelope %(number)s corrected.") % number,
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#envelopes",
        back_label=campaign.name,
        removal=Removal(
            lambda: envelope_remove(envelope=envelope, actor=request.user),
            gettext("Envelope %(number)s removed with its cards.") % number,
            gettext("Remove this Envelope: it was opened by mistake"),
            gettext("Opened by mistake?"),
            gettext(
                "It goes back in the box with its cards: its Dilemma cards leave the deck and its Story card "
                "its storyline (the Prestige or Crave it gave is reversed). The history keeps both."
            ),
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def dilemma_card_move_view(request: HttpRequest, pk: int, card_number: int) -> HttpResponse:
    """A card in the wrong save slot moves to the right one."""
    campaign = member_campaign(request, pk, Need.OWN)
    card = get_object_or_404(campaign.dilemma_cards, number=card_number)
    data = request.POST if request.method == "POST" else None
    form = forms.DilemmaCardMoveForm(data, campaign=campaign, initial={"place": card.place})
    return correction_page(
        request,
        campaign,
        title=gettext("Move %(card)s") % {"card": _card_name(card)},
        current=gettext("Recorded now: in the %(place)s.") % {"place": card.get_place_display()},
        form=form,
        save=(
            lambda data: dilemma_card_move(card=card, place=data["place"], actor=request.user),
            lambda moved: (
                gettext("%(card)s moved to the %(place)s.")
                % {"card": _card_name(moved), "place": moved.get_place_display()}
            ),
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#slots",
        back_label=campaign.name,
    )


def _card_name(card) -> str:
    """A Dilemma, Trigger or Event card by its kind and number."""
    return f"{card.get_kind_display()} {card.number}"
