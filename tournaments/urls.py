from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/action/", views.tournament_action, name="tournament_action"),
    path("tournaments/<int:pk>/hooks/", views.tournament_hooks, name="tournament_hooks"),
    path("leagues/new/", views.league_create, name="league_create"),
    path("leagues/<int:pk>/", views.league_detail, name="league_detail"),
    path("leagues/<int:pk>/action/", views.league_action, name="league_action"),
]
