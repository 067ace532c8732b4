"""The site's URLs and the minimal Django view a move is compared with (bench.floors)."""

from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from bench.floors import django_floor
from config.urls import urlpatterns as site

urlpatterns = [path("bench/floor/<int:pk>/", csrf_exempt(django_floor)), *site]
