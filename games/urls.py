from django.urls import path

from games import views
from games.live import streams

app_name = "games"
urlpatterns = [
    path("", views.session_list, name="session_list"),
    path("s/<id:session_id>/", views.session_table, name="session_table"),
    path("s/<id:session_id>/act/", views.session_table_action, name="session_table_action"),
    path("s/<id:session_id>/compose/", views.session_table_compose, name="session_table_compose"),
    path("s/<id:session_id>/undo/", views.session_undo, name="session_undo"),
    path("s/<id:session_id>/abandon/", views.session_abandon, name="session_abandon"),
    path("s/<id:session_id>/version", views.session_version, name="session_version"),
    path(
        "s/<id:session_id>/seats/<id:seat_index>/show-code/",
        views.session_seat_show_code,
        name="session_seat_show_code",
    ),
    path(
        "s/<id:session_id>/seats/<id:seat_index>/new-code/",
        views.session_seat_new_code,
        name="session_seat_new_code",
    ),
    path("s/<id:session_id>/events/", streams.table_events, name="table_events"),
    path("seat/<str:token>/", views.seat_page, name="seat_page"),
    path("seat/<str:token>/events/", streams.seat_events, name="seat_events"),
    path("s/<id:session_id>/my-seat/", views.my_seat, name="my_seat"),
]
