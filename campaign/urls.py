from django.urls import path

from campaign import views

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
