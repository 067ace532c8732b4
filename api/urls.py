from django.urls import path

from api import views
from api.v1 import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("account/tokens/", views.tokens, name="api_tokens"),
]
