"""King's Dilemma game nights of a campaign through the API: start one from the campaign's legacy
setup (the Houses in table order), then save the finished night back into the campaign; abandon a
night, or resume one abandoned by mistake; take over its table; correct a sticker's aging marks."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi
from api.campaigns.chronicles import chronicle
from api.campaigns.serializers import CampaignHouseField, ChronicleGameSerializer, StickerSerializer
from api.errors import MEMBER_WRITE
from api.fields import NameField, StrictCharField, StrictIntegerField
from api.sessions.serializers import SessionSerializer
from api.sessions.views import SessionCreateApi
from campaign.access import Need
from campaign.legacy import MAX_SPACES
from campaign.selectors import campaign_nights
from campaign.services.chronicles import MAX_PLAYERS, MIN_PLAYERS
from campaign.services.game_nights import game_night_resume, game_night_start, game_night_take_over
from campaign.services.night_saves import game_night_record
from campaign.services.stickers import sticker_marks_correct
from games.access import session_kept_by
from games.services.sessions import session_abandon

TAGS = ["campaigns"]
KEEP_KEYS = gettext_lazy("Keys are House ids.")
ENVELOPE_KEYS = gettext_lazy("Keys are Envelope numbers.")


class GameNightStartApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        king_name = NameField(max_length=80)
        houses = serializers.ListField(
            child=CampaignHouseField(),
            min_length=MIN_PLAYERS,
            max_length=MAX_PLAYERS,
            help_text="House ids in table order (clockwise).",
        )
        keep = serializers.DictField(
            child=serializers.DictField(child=serializers.ListField(child=StrictCharField(max_length=12))),
            required=False,
            default=dict,
            help_text='Open Agendas a House keeps when it holds more than 2: {"<house id>": {"positive": [rows]}}.',
        )

        def validate_keep(self, keep: dict) -> dict:
            try:
                return {int(house): choice for house, choice in keep.items()}
            except ValueError:
                raise serializers.ValidationError(KEEP_KEYS) from None

    @extend_schema(
        tags=TAGS,
        summary="Start a King's Dilemma game night (the campaign's next game, with its legacy setup)",
        request=InputSerializer,
        responses={201: SessionCreateApi.OutputSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Starts a King's Dilemma game night: a table session with one seat per House in table order,
        set up from the campaign's legacy setup (computed: nothing is written into the campaign until
        the night is saved). Answers 201 with the session and each seat's token. One night of a
        campaign at a time: while one runs (or a game begun on paper has no result), a 400 with code
        invalid whose message names the running night. The owner and players may; a viewer gets 403
        (code permission_denied), a stranger 404."""
        data = self.input(request)
        session = game_night_start(
            campaign=self.campaign,
            houses=data["houses"],
            king_name=data["king_name"],
            host=request.user,
            keep=data["keep"],
        )
        return Response(SessionCreateApi.OutputSerializer(session).data, status=status.HTTP_201_CREATED)


class GameNightSaveApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        envelope_contents = serializers.DictField(
            child=serializers.DictField(),
            required=False,
            default=dict,
            help_text='What each Envelope opened tonight held: {"9": {"story_card": {"number": 9, "storyline": '
            '"Crown"}, "dilemma_numbers": [90, 91, 92], "special": false}}.',
        )

    @extend_schema(
        tags=TAGS,
        summary="'Final Cleanup: Save your game!': write a finished night into the campaign",
        request=InputSerializer,
        responses={200: ChronicleGameSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, session_id: int) -> Response:
        """Writes a finished night into the campaign ('Final Cleanup: Save your game!'): its result,
        stickers, Envelopes and cards. Answers the game; what conflicts with the campaign is left out
        and listed in its conflicts. A night not finished is a 400 with code invalid. The owner and
        players may; a viewer gets 403 (code permission_denied), a stranger 404."""
        session = get_object_or_404(self.campaign.sessions.select_related("chronicle_game"), pk=session_id)
        data = self.input(request)
        try:
            contents = {int(number): body for number, body in data["envelope_contents"].items()}
        except ValueError:
            raise serializers.ValidationError({"envelope_contents": ENVELOPE_KEYS}) from None
        game = game_night_record(session=session, envelope_contents=contents, actor=request.user)
        return Response(ChronicleGameSerializer(chronicle(self.campaign, game.pk)).data)


NIGHT_ABANDON_NOT_YOURS = gettext_lazy("Only the night's host or the campaign's owner abandons a game night.")


class GameNightAbandonApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="Abandon a game night before it is saved (the owner may resume it)",
        request=None,
        responses={200: SessionSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, session_id: int) -> Response:
        """Abandons a night of the campaign that runs: nothing of it was written into the campaign,
        and the campaign's owner may resume it later. Answers the session. A night over or already
        abandoned is a 400 with code invalid. Its host or the campaign's owner may: another member
        gets 403 (code permission_denied), a stranger 404."""
        session = get_object_or_404(campaign_nights(campaign=self.campaign), pk=session_id)
        if not session_kept_by(session=session, user=request.user):
            raise exceptions.PermissionDenied(NIGHT_ABANDON_NOT_YOURS)
        session_abandon(session=session)
        return Response(SessionSerializer(session).data)


class GameNightResumeApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Resume a game night abandoned by mistake (it goes on where it stopped)",
        request=None,
        responses={200: SessionSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, session_id: int) -> Response:
        """Resumes a night of the campaign abandoned before it was saved: it goes on where it stopped,
        its log intact. Answers the session. While another night runs (or a game begun on paper has no
        result), a 400 with code invalid naming it; a night not abandoned, or saved, is a 400 too. The
        campaign's owner only: another member gets 403 (code permission_denied), a stranger 404."""
        session = get_object_or_404(campaign_nights(campaign=self.campaign), pk=session_id)
        game_night_resume(session=session, actor=request.user)
        return Response(SessionSerializer(session).data)


class GameNightTakeOverApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="Take over the table of the night that runs (you become its host)",
        request=None,
        responses={200: SessionSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, session_id: int) -> Response:
        """You become the host of the campaign's night that runs: its table, its seats' codes, undo and
        abandon are yours (its host's phone died, or its host was removed or made a viewer). Answers
        the session. The owner always may; a player only once the host no longer plays in the campaign,
        else a 400 with code invalid saying so (as for a night abandoned or saved, or one you host
        already). A viewer gets 403 (code permission_denied), a stranger 404."""
        session = get_object_or_404(campaign_nights(campaign=self.campaign), pk=session_id)
        game_night_take_over(session=session, actor=request.user)
        return Response(SessionSerializer(session).data)


class StickerAgingCorrectApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(serializers.Serializer):
        marks = StrictIntegerField(
            min_value=0,
            max_value=MAX_SPACES,
            help_text="Aging marks, from 0 to the sticker's last square (the campaign's aging squares, 6 "
            "in the box).",
        )

    @extend_schema(
        tags=TAGS,
        summary="Correct the aging marks of a Chronicle sticker",
        request=InputSerializer,
        responses={200: StickerSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, sticker_number: int) -> Response:
        """Sets a sticker's aging marks (0 to its last square); the history says from what to what.
        Answers the sticker. Marks out of range, or the marks it already has (nothing to correct: nothing
        is written), are a 400 with code invalid. The campaign's owner only: another member gets 403
        (code permission_denied), a stranger 404."""
        sticker = get_object_or_404(self.campaign.stickers, number=sticker_number)
        data = self.input(request)
        corrected = sticker_marks_correct(sticker=sticker, marks=data["marks"], actor=request.user)
        return Response(StickerSerializer(corrected).data)
