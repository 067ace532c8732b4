from django.urls import path

app_name = "notifications"
urlpatterns: list = []
