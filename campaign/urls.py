from django.urls import path

from campaign import story_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("demo-login/", views.demo_login, name="demo-login"),
    path("campaigns/new/", views.campaign_create_view, name="campaign-create"),
    path("campaigns/import/", views.campaign_import_view, name="campaign-import"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:pk>/export/", views.campaign_export_view, name="campaign-export"),
    path(
        "campaigns/<int:pk>/exports/<int:export_id>/",
        views.campaign_export_download,
        name="campaign-export-download",
    ),
    path("campaigns/<int:pk>/charts/<str:name>.svg", views.campaign_chart, name="campaign-chart"),
    path("campaigns/<int:pk>/history/", views.campaign_history_view, name="campaign-history"),
    path("campaigns/<int:pk>/chronicles/", views.campaign_chronicles, name="campaign-chronicles"),
    path("campaigns/<int:pk>/houses/new/", views.house_create_view, name="house-create"),
    path("campaigns/<int:pk>/stickers/new/", views.sticker_attach_view, name="sticker-attach"),
    path("campaigns/<int:pk>/envelopes/new/", views.envelope_open_view, name="envelope-open"),
    path("campaigns/<int:pk>/mystery/new/", views.mystery_attach_view, name="mystery-attach"),
    path("campaigns/<int:pk>/night/new/", views.game_night_start_view, name="kd-night-start"),
    path(
        "campaigns/<int:pk>/night/<int:session_id>/save/",
        views.game_night_record_view,
        name="kd-night-record",
    ),
    path("campaigns/<int:pk>/games/new/", views.game_begin_view, name="game-begin"),
    path("campaigns/<int:pk>/achievements/new/", views.achievement_create_view, name="achievement-create"),
    path("campaigns/<int:pk>/stories/new/", views.story_card_place_view, name="story-place"),
    path("achievements/<int:pk>/mark/", views.achievement_mark_view, name="achievement-mark"),
]

# The first evening and corrections from the pages (issue 23).
urlpatterns += [
    path("campaigns/<int:pk>/envelopes/first/", views.envelope_first_view, name="envelope-first"),
    path("campaigns/<int:pk>/games/<int:number>/correct/", views.game_correct_view, name="game-correct"),
    path(
        "campaigns/<int:pk>/stickers/<int:sticker_number>/correct/",
        views.sticker_correct_view,
        name="sticker-correct",
    ),
    path(
        "campaigns/<int:pk>/envelopes/<int:envelope_number>/correct/",
        views.envelope_correct_view,
        name="envelope-correct",
    ),
    path("campaigns/<int:pk>/cards/<int:card_number>/move/", views.dilemma_card_move_view, name="card-move"),
]

# The campaign over months (issue 16): House pages, statistics, the story of each night.
urlpatterns += [
    path("campaigns/<int:pk>/houses/<int:house_pk>/", story_views.house_page_view, name="house-page"),
    path("campaigns/<int:pk>/statistics/", story_views.statistics_view, name="campaign-statistics"),
    path(
        "campaigns/<int:pk>/statistics/<str:name>.svg", story_views.statistics_chart, name="statistics-chart"
    ),
    path("campaigns/<int:pk>/games/<int:number>/story/", story_views.night_story_view, name="night-story"),
    path(
        "campaigns/<int:pk>/games/<int:number>/story/share/", story_views.story_share_view, name="story-share"
    ),
    path(
        "campaigns/<int:pk>/games/<int:number>/story/unshare/",
        story_views.story_unshare_view,
        name="story-unshare",
    ),
    path("stories/<str:token>/", story_views.shared_story_view, name="shared-story"),
]
