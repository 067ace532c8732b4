from django.urls import path

from . import views

app_name = "notifications"
urlpatterns = [
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("matches/<int:pk>/chat/", views.chat_post, name="chat_post"),
    path("mailbox/", views.mailbox, name="mailbox"),
    path("mailbox/<str:name>/", views.mailbox_message, name="mailbox_message"),
    path("mailbox/<str:name>/html/", views.mailbox_message_html, name="mailbox_message_html"),
]
