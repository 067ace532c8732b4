from django.urls import path

from community import views

app_name = "community"

urlpatterns = [
    path("ratings/", views.leaderboards, name="leaderboards"),
    path("ratings/<slug:slug>/", views.leaderboard, name="leaderboard"),
    path("players/<int:pk>/", views.player, name="player"),
    path("players/me/visibility/", views.profile_visibility, name="profile_visibility"),
    path("archive/", views.archive, name="archive"),
]
