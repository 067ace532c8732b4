from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("anymail/", include("anymail.urls")),
    path("n/", include("notifications.urls")),
    path("n/", include("replies.urls")),
    path("", include("players.urls")),
    path("", include("community.urls")),
    path("", include("api.urls")),
    path("", include("tournaments.urls")),
    path("", include("games.urls")),
]

handler500 = "config.database_outage.server_error"
