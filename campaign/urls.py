from django.urls import path

from campaign import member_views, sheet_views, story_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("demo-login/", views.demo_login, name="demo-login"),
    path("campaigns/new/", views.campaign_create_view, name="campaign-create"),
    path("campaigns/import/", views.campaign_import_view, name="campaign-import"),
    path("campaigns/<id:pk>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<id:pk>/export/", views.campaign_export_view, name="campaign-export"),
    path(
        "campaigns/<id:pk>/exports/<id:export_id>/retry/",
        views.campaign_export_retry_view,
        name="campaign-export-retry",
    ),
    path(
        "campaigns/<id:pk>/exports/<id:export_id>/",
        views.campaign_export_download,
        name="campaign-export-download",
    ),
    path("campaigns/<id:pk>/charts/<str:name>.svg", views.campaign_chart, name="campaign-chart"),
    path("campaigns/<id:pk>/sheet/", sheet_views.campaign_sheet_view, name="campaign-sheet"),
    path("campaigns/<id:pk>/history/", views.campaign_history_view, name="campaign-history"),
    path("campaigns/<id:pk>/chronicles/", views.campaign_chronicles, name="campaign-chronicles"),
    path("campaigns/<id:pk>/houses/new/", views.house_create_view, name="house-create"),
    path("campaigns/<id:pk>/stickers/new/", views.sticker_attach_view, name="sticker-attach"),
    path("campaigns/<id:pk>/envelopes/new/", views.envelope_open_view, name="envelope-open"),
    path("campaigns/<id:pk>/mystery/new/", views.mystery_attach_view, name="mystery-attach"),
    path("campaigns/<id:pk>/night/new/", views.game_night_start_view, name="kd-night-start"),
    path(
        "campaigns/<id:pk>/night/<id:session_id>/save/",
        views.game_night_record_view,
        name="kd-night-record",
    ),
    path(
        "campaigns/<id:pk>/night/<id:session_id>/resume/",
        views.game_night_resume_view,
        name="kd-night-resume",
    ),
    path(
        "campaigns/<id:pk>/night/<id:session_id>/take-over/",
        views.game_night_take_over_view,
        name="kd-night-take-over",
    ),
    path("campaigns/<id:pk>/games/new/", views.game_begin_view, name="game-begin"),
    path("campaigns/<id:pk>/achievements/new/", views.achievement_create_view, name="achievement-create"),
    path("campaigns/<id:pk>/stories/new/", views.story_card_place_view, name="story-place"),
    path("achievements/<id:pk>/mark/", views.achievement_mark_view, name="achievement-mark"),
]

# The first evening and corrections from the pages (issue 23).
urlpatterns += [
    path("campaigns/<id:pk>/envelopes/first/", views.envelope_first_view, name="envelope-first"),
    path("campaigns/<id:pk>/games/<id:number>/correct/", views.game_correct_view, name="game-correct"),
    path(
        "campaigns/<id:pk>/stickers/<id:sticker_number>/correct/",
        views.sticker_correct_view,
        name="sticker-correct",
    ),
    path(
        "campaigns/<id:pk>/envelopes/<id:envelope_number>/correct/",
        views.envelope_correct_view,
        name="envelope-correct",
    ),
    path(
        "campaigns/<id:pk>/stickers/<id:sticker_number>/aging/",
        views.sticker_aging_correct_view,
        name="sticker-aging-correct",
    ),
    path("campaigns/<id:pk>/cards/<id:card_number>/move/", views.dilemma_card_move_view, name="card-move"),
]

# The campaign over months (issue 16): House pages, statistics, the story of each night.
urlpatterns += [
    path("campaigns/<id:pk>/houses/<id:house_pk>/", story_views.house_page_view, name="house-page"),
    path("campaigns/<id:pk>/statistics/", story_views.statistics_view, name="campaign-statistics"),
    path(
        "campaigns/<id:pk>/statistics/<str:name>.svg", story_views.statistics_chart, name="statistics-chart"
    ),
    path("campaigns/<id:pk>/games/<id:number>/story/", story_views.night_story_view, name="night-story"),
    path(
        "campaigns/<id:pk>/games/<id:number>/story/share/", story_views.story_share_view, name="story-share"
    ),
    path(
        "campaigns/<id:pk>/games/<id:number>/story/unshare/",
        story_views.story_unshare_view,
        name="story-unshare",
    ),
    path("stories/<str:token>/", story_views.shared_story_view, name="shared-story"),
]

# Members and invitations (issue 24).
urlpatterns += [
    path("campaigns/<id:pk>/members/", member_views.members_view, name="campaign-members"),
    path("campaigns/<id:pk>/invitations/new/", member_views.invitation_create_view, name="invitation-create"),
    path(
        "campaigns/<id:pk>/invitations/<id:invitation_id>/revoke/",
        member_views.invitation_revoke_view,
        name="invitation-revoke",
    ),
    path("campaigns/<id:pk>/members/<id:member_id>/role/", member_views.member_role_view, name="member-role"),
    path(
        "campaigns/<id:pk>/members/<id:member_id>/house/", member_views.member_house_view, name="member-house"
    ),
    path("campaigns/<id:pk>/members/<id:member_id>/name/", member_views.member_name_view, name="member-name"),
    path(
        "campaigns/<id:pk>/members/<id:member_id>/remove/",
        member_views.member_remove_view,
        name="member-remove",
    ),
    path("invitations/<str:token>/", member_views.invitation_view, name="invitation"),
]
