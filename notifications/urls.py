from django.urls import path

from . import feeds, views

app_name = "notifications"
urlpatterns = [
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="calendar_feed"),
    path("matches/<int:pk>/hooks/", views.match_hooks, name="match_hooks"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("turns/<str:token>.atom", feeds.TurnsFeed(), name="turns_feed"),
    path("boards/<str:token>.png", views.hook_board, name="hook_board"),
]
