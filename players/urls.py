from django.contrib.auth.views import LogoutView
from django.urls import path

from players import language, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/confirm/", views.signup_confirm, name="signup_confirm"),
    path("login/", views.EmailLoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path("login/email/", views.magic_request, name="magic_request"),
    path("login/link/", views.magic_login, name="magic_login"),
    path("account/", views.account, name="account"),
    path("language/", language.set_language, name="set_language"),
    path("account/sign-out-everywhere/", views.sign_out_everywhere, name="sign_out_everywhere"),
]
