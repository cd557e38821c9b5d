from django.urls import path

from campaign.views import (
    archive,
    board,
    campaigns,
    chronicles,
    corrections,
    history,
    houses,
    members,
    nights,
    preferences,
    sheet,
    story,
)

urlpatterns = [
    path("", campaigns.home, name="home"),
    path("demo-login/", campaigns.demo_login, name="demo-login"),
    path("account/", preferences.account_preferences, name="account-preferences"),
    path("campaigns/new/", campaigns.campaign_create_view, name="campaign-create"),
    path("campaigns/import/", archive.campaign_import_view, name="campaign-import"),
    path("campaigns/<id:pk>/", campaigns.campaign_detail, name="campaign-detail"),
    path("campaigns/<id:pk>/export/", archive.campaign_export_view, name="campaign-export"),
    path(
        "campaigns/<id:pk>/exports/<id:export_id>/retry/",
        archive.campaign_export_retry_view,
        name="campaign-export-retry",
    ),
    path(
        "campaigns/<id:pk>/exports/<id:export_id>/",
        archive.campaign_export_download,
        name="campaign-export-download",
    ),
    path("campaigns/<id:pk>/charts/<str:name>.svg", campaigns.campaign_chart, name="campaign-chart"),
    path("campaigns/<id:pk>/sheet/", sheet.campaign_sheet_view, name="campaign-sheet"),
    path("campaigns/<id:pk>/history/", history.campaign_history_view, name="campaign-history"),
    path("campaigns/<id:pk>/chronicles/", chronicles.campaign_chronicles, name="campaign-chronicles"),
    path("campaigns/<id:pk>/houses/new/", houses.house_create_view, name="house-create"),
    path("campaigns/<id:pk>/stickers/new/", board.sticker_attach_view, name="sticker-attach"),
    path("campaigns/<id:pk>/envelopes/new/", board.envelope_open_view, name="envelope-open"),
    path("campaigns/<id:pk>/mystery/new/", board.mystery_attach_view, name="mystery-attach"),
    path("campaigns/<id:pk>/night/new/", nights.game_night_start_view, name="kd-night-start"),
    path(
        "campaigns/<id:pk>/night/<id:session_id>/save/",
        nights.game_night_record_view,
        name="kd-night-record",
    ),
    path(
        "campaigns/<id:pk>/night/<id:session_id>/resume/",
        nights.game_night_resume_view,
        name="kd-night-resume",
    ),
    path(
        "campaigns/<id:pk>/night/<id:session_id>/take-over/",
        nights.game_night_take_over_view,
        name="kd-night-take-over",
    ),
    path("campaigns/<id:pk>/games/new/", chronicles.game_begin_view, name="game-begin"),
    path("campaigns/<id:pk>/achievements/new/", houses.achievement_create_view, name="achievement-create"),
    path("campaigns/<id:pk>/stories/new/", board.story_card_place_view, name="story-place"),
    path("achievements/<id:pk>/mark/", houses.achievement_mark_view, name="achievement-mark"),
]

# The first evening and corrections from the pages.
urlpatterns += [
    path("campaigns/<id:pk>/envelopes/first/", board.envelope_first_view, name="envelope-first"),
    path("campaigns/<id:pk>/games/<id:number>/correct/", corrections.game_correct_view, name="game-correct"),
    path(
        "campaigns/<id:pk>/stickers/<id:sticker_number>/correct/",
        corrections.sticker_correct_view,
        name="sticker-correct",
    ),
    path(
        "campaigns/<id:pk>/envelopes/<id:envelope_number>/correct/",
        corrections.envelope_correct_view,
        name="envelope-correct",
    ),
    path(
        "campaigns/<id:pk>/stickers/<id:sticker_number>/aging/",
        corrections.sticker_aging_correct_view,
        name="sticker-aging-correct",
    ),
    path(
        "campaigns/<id:pk>/cards/<id:card_number>/move/", corrections.dilemma_card_move_view, name="card-move"
    ),
]

# The campaign over months: House pages, statistics, the story of each night.
urlpatterns += [
    path("campaigns/<id:pk>/houses/<id:house_pk>/", story.house_page_view, name="house-page"),
    path("campaigns/<id:pk>/statistics/", story.statistics_view, name="campaign-statistics"),
    path("campaigns/<id:pk>/statistics/<str:name>.svg", story.statistics_chart, name="statistics-chart"),
    path("campaigns/<id:pk>/games/<id:number>/story/", story.night_story_view, name="night-story"),
    path("campaigns/<id:pk>/games/<id:number>/story/share/", story.story_share_view, name="story-share"),
    path(
        "campaigns/<id:pk>/games/<id:number>/story/unshare/",
        story.story_unshare_view,
        name="story-unshare",
    ),
    path("stories/<str:token>/", story.shared_story_view, name="shared-story"),
]

# Members and invitations.
urlpatterns += [
    path("campaigns/<id:pk>/members/", members.members_view, name="campaign-members"),
    path("campaigns/<id:pk>/invitations/new/", members.invitation_create_view, name="invitation-create"),
    path(
        "campaigns/<id:pk>/invitations/<id:invitation_id>/revoke/",
        members.invitation_revoke_view,
        name="invitation-revoke",
    ),
    path("campaigns/<id:pk>/members/<id:member_id>/role/", members.member_role_view, name="member-role"),
    path("campaigns/<id:pk>/members/<id:member_id>/house/", members.member_house_view, name="member-house"),
    path("campaigns/<id:pk>/members/<id:member_id>/name/", members.member_name_view, name="member-name"),
    path(
        "campaigns/<id:pk>/members/<id:member_id>/remove/",
        members.member_remove_view,
        name="member-remove",
    ),
    path("invitations/<str:token>/", members.invitation_view, name="invitation"),
]
