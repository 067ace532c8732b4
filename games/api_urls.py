from django.urls import path

from games import api

urlpatterns = [
    path("matches/<int:pk>/", api.match_detail, name="api_match"),
    path("matches/<int:pk>/moves/", api.match_move, name="api_move"),
]
