from typing import Any, cast

from django.conf import settings
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from api.accounts import views as accounts
from api.archive import views as arc
from api.campaigns import board, chronicles, houses
from api.campaigns import corrections as fix
from api.campaigns import members as m
from api.campaigns import nights as n
from api.campaigns import story as st
from api.campaigns import views as c
from api.schema import EnglishSchemaApi
from api.sessions import seat_views as seats
from api.sessions import stream, stream_events
from api.sessions import views as s
from config.api_errors import api_not_found

# The browsable docs (Swagger UI and ReDoc) come from our own static files (drf-spectacular-sidecar),
# so they work on a home network without internet; their scripts are files (Swagger UI's settings
# too: the split view), but both set inline styles and ReDoc runs a worker from a blob.
DOCS_CSP = csp_override(
    {
        **cast(dict[str, Any], settings.SECURE_CSP),
        "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
        "worker-src": [CSP.SELF, "blob:"],
    }
)


def _documented_stream(view: Any, api_class: type) -> Any:
    """An event stream, served apart from DRF (games/live/asgi.py: an async view holding no thread),
    described in the schema by ``api_class``: drf-spectacular reads an endpoint's ``cls``."""
    view.cls, view.initkwargs = api_class, {}
    return view


campaign_patterns = [
    path("", c.CampaignDetailApi.as_view(), name="campaign-detail"),
    path("houses/", houses.HouseListApi.as_view(), name="house-list"),
    path("houses/create/", houses.HouseCreateApi.as_view(), name="house-create"),
    path("houses/<id:house_id>/", houses.HouseDetailApi.as_view(), name="house-detail"),
    path(
        "achievements/<id:achievement_id>/mark/", houses.AchievementMarkApi.as_view(), name="achievement-mark"
    ),
    path("board/", board.RealmBoardApi.as_view(), name="realm-board"),
    path("stickers/attach/", board.StickerAttachApi.as_view(), name="sticker-attach"),
    path("envelopes/", board.EnvelopeListApi.as_view(), name="envelope-list"),
    path("envelopes/open/", board.EnvelopeOpenApi.as_view(), name="envelope-open"),
    path("storylines/", board.StorylineListApi.as_view(), name="storyline-list"),
    path("save-slots/", board.SaveSlotsApi.as_view(), name="save-slots"),
    path("mystery-stickers/attach/", board.MysteryStickerAttachApi.as_view(), name="mystery-attach"),
    path("games/", chronicles.GameListApi.as_view(), name="game-list"),
    path("games/begin/", chronicles.GameBeginApi.as_view(), name="game-begin"),
    path("games/<id:game_id>/", chronicles.GameDetailApi.as_view(), name="game-detail"),
    path("games/<id:game_id>/result/", chronicles.GameResultRecordApi.as_view(), name="game-result-record"),
    path(
        "games/<id:game_id>/result/correct/",
        chronicles.GameResultCorrectApi.as_view(),
        name="game-result-correct",
    ),
    path("history/", c.HistoryListApi.as_view(), name="history"),
    path("stickers/<id:sticker_number>/correct/", fix.StickerCorrectApi.as_view(), name="sticker-correct"),
    path("stickers/<id:sticker_number>/remove/", fix.StickerRemoveApi.as_view(), name="sticker-remove"),
    path(
        "envelopes/<id:envelope_number>/correct/", fix.EnvelopeCorrectApi.as_view(), name="envelope-correct"
    ),
    path("envelopes/<id:envelope_number>/remove/", fix.EnvelopeRemoveApi.as_view(), name="envelope-remove"),
    path("cards/<id:card_number>/move/", fix.DilemmaCardMoveApi.as_view(), name="card-move"),
    path("nights/start/", n.GameNightStartApi.as_view(), name="night-start"),
    path("nights/<id:session_id>/save/", n.GameNightSaveApi.as_view(), name="night-save"),
    path("nights/<id:session_id>/resume/", n.GameNightResumeApi.as_view(), name="night-resume"),
    path("nights/<id:session_id>/abandon/", n.GameNightAbandonApi.as_view(), name="night-abandon"),
    path("nights/<id:session_id>/take-over/", n.GameNightTakeOverApi.as_view(), name="night-take-over"),
    path("stickers/<id:sticker_number>/aging/", n.StickerAgingCorrectApi.as_view(), name="sticker-aging"),
    path("houses/<id:house_id>/page/", st.HousePageApi.as_view(), name="house-page"),
    path("statistics/", st.StatisticsApi.as_view(), name="statistics"),
    path("games/<id:game_id>/story/", st.GameStoryApi.as_view(), name="game-story"),
    path("games/<id:game_id>/story/share/", st.StoryLinkCreateApi.as_view(), name="story-share"),
    path("games/<id:game_id>/story/share/revoke/", st.StoryLinkRevokeApi.as_view(), name="story-unshare"),
]

session_patterns = [
    path("", s.SessionDetailApi.as_view(), name="session-detail"),
    path("table/", s.SessionTableApi.as_view(), name="session-table"),
    path("table/actions/submit/", s.SessionTableActionApi.as_view(), name="session-table-action"),
    path("undo/", s.SessionUndoApi.as_view(), name="session-undo"),
    path("log/", s.SessionLogApi.as_view(), name="session-log"),
    path(
        "events/",
        _documented_stream(stream_events.session_events, stream.SessionEventsApi),
        name="session-events",
    ),
    path("seats/<id:seat_index>/join/", seats.SeatJoinApi.as_view(), name="seat-join"),
    path("seats/<id:seat_index>/show-code/", seats.SeatShowCodeApi.as_view(), name="seat-show-code"),
    path("seats/<id:seat_index>/rotate/", seats.SeatRotateTokenApi.as_view(), name="seat-rotate"),
    path("seats/<id:seat_index>/", seats.SeatViewApi.as_view(), name="seat-view"),
    path("seats/<id:seat_index>/actions/", seats.SeatLegalActionsApi.as_view(), name="seat-legal-actions"),
    path(
        "seats/<id:seat_index>/actions/submit/",
        seats.SeatActionSubmitApi.as_view(),
        name="seat-action-submit",
    ),
]

api_patterns: list[URLPattern | URLResolver] = [
    path("auth/token/", accounts.TokenObtainApi.as_view(), name="token-obtain"),
    path("auth/token/revoke/", accounts.TokenRevokeApi.as_view(), name="token-revoke"),
    path("auth/devices/", accounts.DeviceListApi.as_view(), name="device-list"),
    path("auth/devices/<id:device_id>/revoke/", accounts.DeviceRevokeApi.as_view(), name="device-revoke"),
    path("campaigns/", c.CampaignListApi.as_view(), name="campaign-list"),
    path("campaigns/create/", c.CampaignCreateApi.as_view(), name="campaign-create"),
    path("campaigns/<id:campaign_id>/", include(campaign_patterns)),
    path("games/", s.TableGameListApi.as_view(), name="table-game-list"),
    path("sessions/create/", s.SessionCreateApi.as_view(), name="session-create"),
    path("sessions/<id:session_id>/", include(session_patterns)),
    path("sessions/mine/", s.MySeatListApi.as_view(), name="my-seat-list"),
    path("seats/find/", seats.SeatFindApi.as_view(), name="seat-find"),
    path("auth/signup/", accounts.SignupApi.as_view(), name="signup"),
]

# Members and invitations.
campaign_patterns += [
    path("members/", m.MemberListApi.as_view(), name="member-list"),
    path("members/<id:member_id>/role/", m.MemberRoleApi.as_view(), name="member-role"),
    path("members/<id:member_id>/house/", m.MemberHouseApi.as_view(), name="member-house"),
    path("members/<id:member_id>/name/", m.MemberNameApi.as_view(), name="member-name"),
    path("members/<id:member_id>/remove/", m.MemberRemoveApi.as_view(), name="member-remove"),
    path("invitations/", m.InvitationListApi.as_view(), name="invitation-list"),
    path("invitations/<id:invitation_id>/revoke/", m.InvitationRevokeApi.as_view(), name="invitation-revoke"),
]
api_patterns += [
    path("invitations/<str:token>/", m.InvitationDetailApi.as_view(), name="invitation-detail"),
    path("invitations/<str:token>/accept/", m.InvitationAcceptApi.as_view(), name="invitation-accept"),
]

# A campaign's archive: export (the owner) and import.
campaign_patterns += [
    path("export/", arc.CampaignExportRequestApi.as_view(), name="campaign-export"),
    path("exports/<id:export_id>/", arc.CampaignExportStatusApi.as_view(), name="campaign-export-status"),
    path(
        "exports/<id:export_id>/download/",
        arc.CampaignExportDownloadApi.as_view(),
        name="campaign-export-download",
    ),
]
api_patterns += [path("campaigns/import/", arc.CampaignImportApi.as_view(), name="campaign-import")]

urlpatterns = [
    path("", include((api_patterns, "api"))),
    path("schema/", EnglishSchemaApi.as_view(), name="schema"),
    path("docs/", DOCS_CSP(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    path(
        "redoc/",
        DOCS_CSP(SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")),
        name="api-redoc",
    ),
    re_path(r"^.*$", api_not_found),  # the API's error shape, not the site's HTML 404
]
