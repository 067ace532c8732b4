from django.urls import path

from . import views

app_name = "replies"
urlpatterns = [
    path("mailbox/", views.mailbox, name="mailbox"),
    path("mailbox/<str:name>/", views.mailbox_message, name="mailbox_message"),
    path("mailbox/<str:name>/html/", views.mailbox_message_html, name="mailbox_message_html"),
]
