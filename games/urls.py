from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("matches/new/", views.match_create, name="match_create"),
    path("matches/play-now/", views.play_now, name="play_now"),
    path("matches/<int:pk>/", views.match_detail, name="match_detail"),
    path("matches/<int:pk>/poll/", views.match_poll, name="match_poll"),
    path("matches/<int:pk>/chat/", views.match_chat, name="match_chat"),
    path("matches/<int:pk>/seat/", views.match_seat_action, name="match_seat_action"),
    path("matches/<int:pk>/take/", views.match_take_seat, name="match_take_seat"),
    path("matches/<int:pk>/link/", views.match_link, name="match_link"),
    path("matches/<int:pk>/join/", views.match_join, name="match_join"),
    path("matches/<int:pk>/move/", views.match_move, name="match_move"),
    path("matches/<int:pk>/orders/", views.match_orders, name="match_orders"),
    path("matches/<int:pk>/resign/", views.match_resign, name="match_resign"),
    path("matches/<int:pk>/takeback/", views.match_takeback, name="match_takeback"),
    path("matches/<int:pk>/replay/", views.match_replay, name="match_replay"),
]
